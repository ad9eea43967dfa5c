import '../../app/shared-chunk';
import { ReasonButton } from '../../components/Tooltip';
import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { Namespace } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { ItemDialogs } from '../../components/ItemDialogs';
import { NameKeyFields } from '../../components/EntityForm';
import { TextField } from '../../components/Field';
import { EditDeleteButtons, TableHead } from '../../components/RowActions';
import { SubmitButton } from '../../components/SubmitButton';
import { useForm, useSubmitting } from '../../lib/form';
import { truncate } from '../../lib/format';
import { keyRule, requiredString } from '../../lib/validation';
import { toastError, toastSuccess } from '../../stores/toasts';
import { type NamespaceValues, useCreateNamespace, useDeleteNamespace, useNamespaces, useUpdateNamespace } from './api';
import { useWritable } from '../../api/writable';

const namespaceSchema = v.object({ key: keyRule, name: requiredString });
const EMPTY: NamespaceValues = { key: '', name: '', description: '' };

function NamespaceForm({
  namespace,
  onSave,
}: {
  namespace?: Namespace;
  onSave(values: NamespaceValues): Promise<unknown>;
}) {
  const form = useForm(
    namespace ? { key: namespace.key, name: namespace.name, description: namespace.description } : EMPTY,
    namespaceSchema,
  );
  const [submitting, track] = useSubmitting();
  const { values } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    track(() => onSave(values));
  };
  return (
    <form className="form" onSubmit={submit}>
      <NameKeyFields form={form} editing={Boolean(namespace)} stacked />
      <TextField label="Description" {...form.field('description')} />
      <div className="form-actions">
        <SubmitButton
          label={namespace ? 'Update' : 'Create'}
          submitting={submitting}
          ready={form.dirty && form.valid}
        />
      </div>
    </form>
  );
}

export default function NamespacesTab() {
  const namespaces = useNamespaces();
  const create = useCreateNamespace();
  const update = useUpdateNamespace();
  const remove = useDeleteNamespace();
  const [editing, setEditing] = useState<Namespace | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Namespace | null>(null);
  const writable = useWritable();

  const save = (values: NamespaceValues) =>
    (editing === 'new' ? create : update)
      .mutateAsync(values)
      .then(() => {
        // Flipt's words, its full stop included
        toastSuccess(editing === 'new' ? 'Successfully created namespace.' : 'Successfully updated namespace.');
        setEditing(null);
      })
      .catch((error) => toastError(errorMessage(error)));

  return (
    <section aria-label="Namespaces">
      <header className="section-header">
        <h2>Namespaces</h2>
        <ReasonButton className="button button-primary" reason={writable.reason} onClick={() => setEditing('new')}>
          New Namespace
        </ReasonButton>
      </header>
      {namespaces.isError && <p role="alert">{namespaces.error.message}</p>}
      <table className="table">
        <TableHead columns={['Key', 'Name', 'Description']} />
        <tbody>
          {namespaces.data?.namespaces.map((namespace) => (
            <tr key={namespace.key}>
              <td>{truncate(namespace.key)}</td>
              <td>{truncate(namespace.name)}</td>
              <td>{truncate(namespace.description)}</td>
              <td className="row-actions">
                <EditDeleteButtons
                  name={namespace.key}
                  disabled={writable.disabled}
                  reason={writable.reason}
                  deleteDisabled={namespace.protected}
                  deleteReason={
                    writable.reason ??
                    (namespace.protected ? 'This namespace is protected and cannot be deleted' : undefined)
                  }
                  onEdit={() => setEditing(namespace)}
                  onDelete={() => setDeleting(namespace)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ItemDialogs
        entity="Namespace"
        editing={editing}
        onCloseEdit={() => setEditing(null)}
        form={(namespace) => <NamespaceForm namespace={namespace} onSave={save} />}
        deleting={deleting}
        onCloseDelete={() => setDeleting(null)}
        deleteNoun="namespace"
        deleteName={deleting?.key}
        onDelete={(namespace) => remove.mutateAsync(namespace.key)}
      />
    </section>
  );
}
