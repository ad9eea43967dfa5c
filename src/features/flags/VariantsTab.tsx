import '../../app/shared-chunk';
import { ReasonButton } from '../../components/Tooltip';
import { useState, type FormEvent } from 'react';
import type { Variant } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { ItemDialogs } from '../../components/ItemDialogs';
import { Field } from '../../components/Field';
import { EditDeleteButtons, TableHead } from '../../components/RowActions';
import { SubmitButton } from '../../components/SubmitButton';
import { useForm, useSubmitting } from '../../lib/form';
import { stringAsKey, truncate } from '../../lib/format';
import { toastError, toastSuccess } from '../../stores/toasts';
import { READ_ONLY_TITLE, useReadOnly } from '../../api/meta';
import { useFlagMutations, variantValues, type VariantValues } from './queries';
import { variantSchema } from './schemas';
import type { FlagTabProps } from './tabs';

const EMPTY_VARIANT: VariantValues = { key: '', name: '', description: '', attachment: '' };

function VariantForm({ variant, onSave }: { variant?: Variant; onSave(values: VariantValues): Promise<unknown> }) {
  const form = useForm(variant ? variantValues(variant) : EMPTY_VARIANT, variantSchema);
  const [submitting, track] = useSubmitting();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    track(() => onSave(form.values));
  };
  return (
    <form className="form" onSubmit={submit}>
      <Field label="Key" error={form.error('key')}>
        {(props) => (
          <input
            {...props}
            name="key"
            value={form.values.key}
            onChange={(event) => form.set('key', stringAsKey(event.target.value))}
          />
        )}
      </Field>
      <Field label="Name">
        {(props) => (
          <input
            {...props}
            name="name"
            value={form.values.name}
            onChange={(event) => form.set('name', event.target.value)}
          />
        )}
      </Field>
      <Field label="Description">
        {(props) => (
          <input
            {...props}
            name="description"
            value={form.values.description}
            onChange={(event) => form.set('description', event.target.value)}
          />
        )}
      </Field>
      <Field label="Attachment" error={form.error('attachment')}>
        {(props) => (
          <textarea
            {...props}
            name="attachment"
            rows={5}
            value={form.values.attachment}
            onChange={(event) => form.set('attachment', event.target.value)}
          />
        )}
      </Field>
      <div className="form-actions">
        <SubmitButton label={variant ? 'Update' : 'Create'} submitting={submitting} ready={form.dirty && form.valid} />
      </div>
    </form>
  );
}

export default function VariantsTab({ namespaceKey, flag }: FlagTabProps) {
  const readOnly = useReadOnly();
  const mutations = useFlagMutations(namespaceKey);
  const [editing, setEditing] = useState<Variant | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Variant | null>(null);
  const disabledTitle = readOnly ? READ_ONLY_TITLE : undefined;

  const save = (values: VariantValues) =>
    mutations.saveVariant
      .mutateAsync({ flagKey: flag.key, id: editing === 'new' ? undefined : editing?.id, values })
      .then(() => {
        // Flipt's words, its full stop included
        toastSuccess(editing === 'new' ? 'Successfully created variant.' : 'Successfully updated variant.');
        setEditing(null);
      })
      .catch((error) => toastError(errorMessage(error)));

  return (
    <section aria-label="Variants">
      <header className="section-header">
        <h2>Variants</h2>
        <ReasonButton className="button button-primary" reason={disabledTitle} onClick={() => setEditing('new')}>
          New Variant
        </ReasonButton>
      </header>
      {flag.variants.length === 0 ? (
        <p className="muted">This flag has no variants.</p>
      ) : (
        <table className="table">
          <TableHead columns={['Key', 'Name', 'Description']} />
          <tbody>
            {flag.variants.map((variant) => (
              <tr key={variant.id}>
                <td>{truncate(variant.key)}</td>
                <td>{truncate(variant.name)}</td>
                <td>{truncate(variant.description)}</td>
                <td className="row-actions">
                  <EditDeleteButtons
                    name={variant.key}
                    disabled={readOnly}
                    reason={disabledTitle}
                    onEdit={() => setEditing(variant)}
                    onDelete={() => setDeleting(variant)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ItemDialogs
        entity="Variant"
        editing={editing}
        onCloseEdit={() => setEditing(null)}
        form={(variant) => <VariantForm variant={variant} onSave={save} />}
        deleting={deleting}
        onCloseDelete={() => setDeleting(null)}
        deleteNoun="variant"
        deleteName={deleting?.key}
        onDelete={(variant) => mutations.removeVariant.mutateAsync({ flagKey: flag.key, id: variant.id })}
      />
    </section>
  );
}
