import '../../app/shared-chunk';
import { ReasonButton } from '../../components/Tooltip';
import { useState, type FormEvent } from 'react';
import type { Variant } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { ItemDialogs } from '../../components/ItemDialogs';
import { Field, TextField } from '../../components/Field';
import { EditDeleteButtons, TableHead } from '../../components/RowActions';
import { SubmitButton } from '../../components/SubmitButton';
import { useForm, useSubmitting } from '../../lib/form';
import { stringAsKey, truncate } from '../../lib/format';
import { toastError, toastSuccess } from '../../stores/toasts';
import { useDeleteVariant, useSaveVariant, variantValues } from './api';
import { variantSchema, type VariantValues } from './schemas';
import type { FlagTabProps } from './tab-props';

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
        {(props) => <input {...props} {...form.field('key', stringAsKey)} />}
      </Field>
      <Field label="Name">{(props) => <input {...props} {...form.field('name')} />}</Field>
      <TextField label="Description" {...form.field('description')} />
      <Field label="Attachment" error={form.error('attachment')}>
        {(props) => <textarea {...props} {...form.field('attachment')} rows={5} />}
      </Field>
      <div className="form-actions">
        <SubmitButton label={variant ? 'Update' : 'Create'} submitting={submitting} ready={form.dirty && form.valid} />
      </div>
    </form>
  );
}

export default function VariantsTab({ namespaceKey, flag }: FlagTabProps) {
  const writable = useWritable();
  const saveVariant = useSaveVariant(namespaceKey);
  const deleteVariant = useDeleteVariant(namespaceKey);
  const [editing, setEditing] = useState<Variant | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Variant | null>(null);

  const save = (values: VariantValues) =>
    saveVariant
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
        <ReasonButton className="button button-primary" reason={writable.reason} onClick={() => setEditing('new')}>
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
                    {...writable}
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
        onDelete={(variant) => deleteVariant.mutateAsync({ flagKey: flag.key, id: variant.id })}
      />
    </section>
  );
}
