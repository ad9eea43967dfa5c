import '../../app/shared-chunk';
import { ReasonButton } from '../../components/Tooltip';
import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { AuthMetadata, type Authentication, type CreateTokenResponse } from '../../../domain/flipt/auth';
import { errorMessage } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Field, TextField } from '../../components/Field';
import { Picker } from '../../components/Picker';
import { keyedOptions } from '../../lib/options';
import { SubmitButton } from '../../components/SubmitButton';
import { Timestamp } from '../../components/Timestamp';
import { useForm } from '../../lib/form';
import { truncate } from '../../lib/format';
import { toDatetimeValue } from '../../lib/time';
import { requiredString } from '../../lib/validation';
import { usePreferencesStore } from '../../stores/preferences';
import { toastError, toastSuccess } from '../../stores/toasts';
import { methodEnabled, useAuthMethods } from '../../api/authMethods';
import { useNamespaces } from '../namespaces';
import { useWritable } from '../../api/writable';
import { useCreateToken, useDeleteTokens, useTokens } from './api';

const ALL_NAMESPACES = { value: '', name: 'All namespaces', key: '' };

const tokenSchema = v.object({ name: requiredString });
const EMPTY = { name: '', description: '', expiresOn: '', namespaceKey: '' };

function TokenForm({ onCreated }: { onCreated(created: CreateTokenResponse): void }) {
  const form = useForm(EMPTY, tokenSchema);
  const create = useCreateToken();
  const namespaces = useNamespaces();
  const timezone = usePreferencesStore((state) => state.timezone);
  const { values } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create
      .mutateAsync({
        name: values.name.trim(),
        description: values.description,
        ...(values.expiresOn && { expiresAt: toDatetimeValue(values.expiresOn, '', timezone) }),
        ...(values.namespaceKey && { namespaceKey: values.namespaceKey }),
      })
      .then(onCreated)
      .catch((error) => toastError(errorMessage(error)));
  };
  return (
    <form className="form" onSubmit={submit}>
      <Field label="Name" error={form.error('name')}>
        {(props) => <input {...props} {...form.field('name')} />}
      </Field>
      <TextField label="Description" {...form.field('description')} />
      <Field label="Expires On" hint="Optional: the token never expires when left empty.">
        {(props) => <input {...props} type="date" {...form.field('expiresOn')} />}
      </Field>
      <Picker
        label="Namespace"
        hint="Optional: a token scoped to one namespace can only reach that namespace."
        placeholder="All namespaces"
        options={[ALL_NAMESPACES, ...keyedOptions(namespaces.data?.namespaces ?? [])]}
        {...form.control('namespaceKey')}
      />
      <div className="form-actions">
        <SubmitButton label="Create" submitting={create.isPending} ready={form.dirty && form.valid} />
      </div>
    </form>
  );
}

/** The new token, shown once: the server never returns it again. */
function CreatedToken({ created, onDone }: { created: CreateTokenResponse; onDone(): void }) {
  return (
    <div className="form">
      <p>Copy the token now: it will not be shown again.</p>
      <div className="token-value">
        <input readOnly aria-label="Token" value={created.clientToken} onFocus={(event) => event.target.select()} />
        <CopyButton text={created.clientToken} label="Copy token" />
      </div>
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

const nameOf = (token: Authentication) => token.metadata[AuthMetadata.tokenName] ?? '';

/** Where static tokens are switched on: creating one is refused while they are off. */
function TokenAuthDisabled() {
  return (
    <div className="empty-state">
      <p>
        <strong>Token authentication is not enabled on this server.</strong>
      </p>
      <p className="muted">
        To create static tokens, set <code>authentication.methods.token.enabled: true</code> in the server's
        configuration file and restart it.
      </p>
    </div>
  );
}

export default function TokensTab() {
  const tokens = useTokens();
  const methods = useAuthMethods();
  const tokenAuth = methods.data && methodEnabled(methods.data.methods, 'METHOD_TOKEN');
  const { reason } = useWritable();
  const removeMany = useDeleteTokens();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreateTokenResponse>();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState(false);
  const list = tokens.data ?? [];
  const allSelected = list.length > 0 && list.every((token) => selected.has(token.id));

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const closeCreate = () => {
    setCreating(false);
    setCreated(undefined);
  };
  const remove = () =>
    removeMany
      .mutateAsync([...selected])
      .then(() => toastSuccess(selected.size === 1 ? 'Successfully deleted token' : 'Successfully deleted tokens'))
      .catch((error) => toastError(errorMessage(error)))
      .finally(() => setSelected(new Set()));

  return (
    <section aria-label="API Tokens">
      <header className="section-header">
        <div>
          <h2>Static Tokens</h2>
          <p className="muted">Clients send a static token as a bearer token to reach the API.</p>
        </div>
        <div className="form-actions">
          {list.length > 0 && (
            <ReasonButton
              className="button button-danger"
              disabled={selected.size === 0}
              reason={reason}
              onClick={() => setDeleting(true)}
            >
              Delete{selected.size > 0 && ` (${selected.size})`}
            </ReasonButton>
          )}
          {tokenAuth && (
            <ReasonButton className="button button-primary" reason={reason} onClick={() => setCreating(true)}>
              New Token
            </ReasonButton>
          )}
        </div>
      </header>
      {tokens.isError && <p role="alert">{errorMessage(tokens.error)}</p>}
      {methods.isError && <p role="alert">{errorMessage(methods.error)}</p>}
      {methods.isSuccess && !tokenAuth && <TokenAuthDisabled />}
      {tokenAuth && tokens.isSuccess && list.length === 0 && <p className="muted">No API tokens yet.</p>}
      {list.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all tokens"
                  checked={allSelected}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(list.map((token) => token.id)))}
                />
              </th>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
            </tr>
          </thead>
          <tbody>
            {list.map((token) => (
              <tr key={token.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${nameOf(token)}`}
                    checked={selected.has(token.id)}
                    onChange={() => toggle(token.id)}
                  />
                </td>
                <td>{truncate(nameOf(token))}</td>
                <td>{truncate(token.metadata[AuthMetadata.tokenDescription] ?? '')}</td>
                <td>{token.createdAt && <Timestamp value={token.createdAt} />}</td>
                <td>
                  {token.expiresAt ? <Timestamp value={token.expiresAt} /> : <span className="muted">Never</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog open={creating} onClose={closeCreate} title={created ? 'Token Created' : 'New Token'}>
        {created ? <CreatedToken created={created} onDone={closeCreate} /> : <TokenForm onCreated={setCreated} />}
      </Dialog>
      <ConfirmDialog open={deleting} onClose={() => setDeleting(false)} title="Delete Tokens" onConfirm={remove}>
        Are you sure you want to delete{' '}
        {selected.size === 1 ? 'the selected token' : `the ${selected.size} selected tokens`}?
      </ConfirmDialog>
    </section>
  );
}
