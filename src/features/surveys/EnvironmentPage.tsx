import '../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import { PLACEMENTS, type ProductSettings, productSettingsSchema } from '../../../domain/surveys/schema';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { CopyButton } from '../../components/CopyButton';
import { DeleteDialog } from '../../components/Dialog';
import { DataTable } from '../../components/RowActions';
import { Field, TextField } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { Timestamp } from '../../components/Timestamp';
import { ReasonButton } from '../../components/Tooltip';
import { useForm } from '../../lib/form';
import { useNamespaceKey } from '../../lib/namespace';
import { toastError, toastSuccess } from '../../stores/toasts';
import {
  type ApiKey,
  apiKeysQuery,
  type SurveyEnvironment,
  useCreateApiKey,
  useRevokeApiKey,
  useSaveProduct,
} from './api';
import { PLACEMENT_LABELS } from './labels';
import { SurveysArea } from './SurveysArea';
import { Snippets, WidgetSeen } from './WidgetSetup';

export default function EnvironmentPage({ params }: { params: Record<string, string | undefined> }) {
  return (
    <SurveysArea environmentId={params.environmentId} tab="environment">
      {(environment) => (
        <>
          <Setup environment={environment} />
          <ProductForm key={environment.id} environment={environment} />
          <ApiKeys environment={environment} />
        </>
      )}
    </SurveysArea>
  );
}

function Setup({ environment }: { environment: SurveyEnvironment }) {
  return (
    <section className="panel" aria-labelledby="setup-heading">
      <h2 id="setup-heading" className="panel-title">
        Set up the widget
      </h2>
      <dl className="facts">
        <dt>Environment ID</dt>
        <dd>
          <code>{environment.id}</code> <CopyButton text={environment.id} label="Copy environment ID" />
        </dd>
        <dt>Widget</dt>
        <dd>
          <WidgetSeen environment={environment} />
        </dd>
      </dl>
      <Snippets environment={environment} />
    </section>
  );
}

type ProductValues = { name: string } & ProductSettings;
const productSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'Required')),
  ...productSettingsSchema.entries,
});

function ProductForm({ environment }: { environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const writable = useWritable();
  const { id: _id, ...initial } = environment.product;
  const form = useForm<ProductValues>(initial, productSchema);
  const save = useSaveProduct(namespaceKey, environment.id);
  const { values } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save
      .mutateAsync(values)
      .then(() => {
        toastSuccess('Successfully updated product settings');
        form.reset(values);
      })
      .catch((error) => toastError(errorMessage(error)));
  };
  const check = (field: 'clickOutsideClose' | 'darkOverlay' | 'inAppSurveyBranding', label: string) => (
    <label className="check">
      <input type="checkbox" disabled={writable.disabled} {...form.checkbox(field)} />
      {label}
    </label>
  );
  return (
    <section className="panel" aria-labelledby="product-heading">
      <h2 id="product-heading" className="panel-title">
        Product settings
      </h2>
      <p className="muted">
        What the widget's sync sends for every environment of this product; a survey may override the look.
      </p>
      <form className="form form-grid" onSubmit={submit}>
        <TextField
          label="Product name"
          error={form.error('name')}
          disabled={writable.disabled}
          {...form.field('name')}
        />
        <TextField
          label="Brand colour"
          error={form.error('brandColor')}
          disabled={writable.disabled}
          {...form.field('brandColor')}
        />
        <Field label="Highlight border colour" error={form.error('highlightBorderColor')} hint="Empty for none">
          {(props) => (
            <input
              {...props}
              value={values.highlightBorderColor ?? ''}
              disabled={writable.disabled}
              onChange={(e) => form.set('highlightBorderColor', e.target.value === '' ? null : e.target.value)}
            />
          )}
        </Field>
        <Field label="Placement" error={form.error('placement')}>
          {(props) => (
            <select {...props} disabled={writable.disabled} {...form.choice('placement')}>
              {PLACEMENTS.map((placement) => (
                <option key={placement} value={placement}>
                  {PLACEMENT_LABELS[placement]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Recontact days"
          error={form.error('recontactDays')}
          hint="Days to wait after any survey before showing another"
        >
          {(props) => (
            <input
              {...props}
              type="number"
              min={0}
              value={Number.isNaN(values.recontactDays) ? '' : values.recontactDays}
              disabled={writable.disabled}
              onChange={(e) => form.set('recontactDays', e.target.valueAsNumber)}
            />
          )}
        </Field>
        <div className="field">
          {check('clickOutsideClose', 'Close on click outside')}
          {check('darkOverlay', 'Dark overlay')}
          {check('inAppSurveyBranding', 'Show “Powered by” branding')}
        </div>
        <div className="form-actions">
          <SubmitButton
            label="Update"
            submitting={save.isPending}
            ready={form.dirty && form.valid && !writable.disabled}
            reason={writable.reason}
          />
        </div>
      </form>
    </section>
  );
}

function ApiKeys({ environment }: { environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const writable = useWritable();
  const keys = useQuery(apiKeysQuery(namespaceKey, environment.id));
  const create = useCreateApiKey(namespaceKey, environment.id);
  const revoke = useRevokeApiKey(namespaceKey, environment.id);
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<string>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create
      .mutateAsync(label.trim())
      .then((key) => {
        setCreated(key.apiKey);
        setLabel('');
      })
      .catch((error) => toastError(errorMessage(error)));
  };
  return (
    <section className="panel" aria-labelledby="keys-heading">
      <h2 id="keys-heading" className="panel-title">
        Management API keys
      </h2>
      <p className="muted">
        For <code>/api/v1/management</code> with the <code>x-api-key</code> header. A key is shown once, when it is
        created; the server keeps only its hash.
      </p>
      {created && (
        <div className="token-value" role="status">
          <p>Copy the new key now: it will not be shown again.</p>
          <code>{created}</code> <CopyButton text={created} label="Copy API key" />
        </div>
      )}
      <form className="toolbar" onSubmit={submit}>
        <input
          aria-label="Key label"
          placeholder="Label, e.g. CI"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
        />
        <ReasonButton
          type="submit"
          className="button"
          disabled={label.trim() === '' || create.isPending}
          reason={writable.reason}
        >
          Create API key
        </ReasonButton>
      </form>
      {keys.isError && <p role="alert">{keys.error.message}</p>}
      {keys.data && keys.data.length === 0 && <p className="muted">No API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <DataTable columns={['Label', 'Key', 'Created']}>
          {keys.data.map((key) => (
            <tr key={key.id}>
              <td>{key.label}</td>
              <td>
                <code>{key.prefix ? `${key.prefix}…` : '…'}</code>
              </td>
              <td>
                <Timestamp value={key.createdAt} />
              </td>
              <td>
                <ReasonButton
                  className="button button-danger"
                  reason={writable.reason}
                  onClick={() => setRevoking(key)}
                >
                  Revoke
                </ReasonButton>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <DeleteDialog
        item={revoking}
        onClose={() => setRevoking(undefined)}
        title="Revoke API Key"
        confirmLabel="Revoke"
        onDelete={(key) => revoke.mutateAsync(key.id)}
        success="Successfully revoked API key"
      >
        {(key) => (
          <>
            Are you sure you want to revoke the API key <strong>{key.label}</strong>?
          </>
        )}
      </DeleteDialog>
    </section>
  );
}
