import type { FormEvent } from 'react';
import { FLAG_TYPES, type Flag } from '../../../domain/flipt/types';
import { useWritable } from '../../api/writable';
import { NameKeyFields, useSaveEntity } from '../../components/EntityForm';
import { TextField } from '../../components/Field';
import { Picker } from '../../components/Picker';
import { SubmitButton } from '../../components/SubmitButton';
import { useForm } from '../../lib/form';
import { NO_VARIANT, variantOptions } from '../../lib/options';
import { useCreateFlag, useUpdateFlag } from './api';
import { flagTypeLabel } from './labels';
import { flagHrefs } from './hrefs';
import { MetadataEditor } from './MetadataEditor';
import { metadataProblems, toEntries, toMetadata } from './metadata';
import { type FlagFormValues, flagSchema } from './schemas';

function initialValues(flag?: Flag): FlagFormValues {
  return {
    key: flag?.key ?? '',
    name: flag?.name ?? '',
    description: flag?.description ?? '',
    type: flag?.type ?? 'VARIANT_FLAG_TYPE',
    enabled: flag?.enabled ?? false,
    defaultVariantId: flag?.defaultVariant?.id ?? '',
    metadata: toEntries(flag?.metadata),
  };
}

/** Creates a flag (no `flag`) or edits one; the key and type are chosen only at creation. */
export function FlagForm({ namespaceKey, flag }: { namespaceKey: string; flag?: Flag }) {
  const save = useSaveEntity('flag');
  const { disabled, reason } = useWritable();
  const create = useCreateFlag(namespaceKey);
  const update = useUpdateFlag(namespaceKey);
  const form = useForm(initialValues(flag), flagSchema);
  const { values } = form;
  const editing = Boolean(flag);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { defaultVariantId, metadata, ...rest } = values;
    // The metadata is sent whole, `{}` when none is left, so that removing the last entry clears it.
    const flagValues = { ...rest, metadata: toMetadata(metadata) };
    return save({
      update:
        flag &&
        (() =>
          update.mutateAsync({ flagKey: flag.key, values: flagValues, defaultVariantId: defaultVariantId || null })),
      create: () => create.mutateAsync(flagValues),
      createdHref: (key) => flagHrefs.flag(namespaceKey, key),
    });
  };

  return (
    <form className="form" onSubmit={submit}>
      <NameKeyFields form={form} editing={editing} />
      {!editing && (
        <fieldset className="radio-group">
          <legend>Type</legend>
          {FLAG_TYPES.map((type) => (
            <label key={type}>
              <input
                type="radio"
                name="type"
                value={type}
                checked={values.type === type}
                disabled={disabled}
                onChange={() => form.update({ type, enabled: false })}
              />
              {flagTypeLabel(type)}
            </label>
          ))}
        </fieldset>
      )}
      {values.type === 'VARIANT_FLAG_TYPE' && (
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={values.enabled}
            disabled={disabled}
            {...form.checkbox('enabled')}
          />
          Enabled
        </label>
      )}
      <TextField label="Description" {...form.field('description')} disabled={disabled} />
      <MetadataEditor
        entries={values.metadata}
        onChange={form.control('metadata').onChange}
        problems={form.error('metadata') ? metadataProblems(values.metadata) : []}
        disabled={disabled}
      />
      {flag && flag.type === 'VARIANT_FLAG_TYPE' && flag.variants.length > 0 && (
        <Picker
          label="Default Variant"
          placeholder="None"
          options={[NO_VARIANT, ...variantOptions(flag.variants)]}
          disabled={disabled}
          {...form.control('defaultVariantId')}
        />
      )}
      <div className="form-actions">
        <SubmitButton
          label={editing ? 'Update' : 'Create'}
          submitting={create.isPending || update.isPending}
          ready={form.dirty && form.valid}
          reason={reason}
        />
      </div>
    </form>
  );
}
