import type { FormEvent } from 'react';
import type { Flag, FlagType } from '../../../domain/flipt/types';
import { NameKeyFields, useSaveEntity } from '../../components/EntityForm';
import { Field } from '../../components/Field';
import { Picker } from '../../components/Picker';
import { NO_VARIANT, variantOptions } from '../../lib/options';
import { SubmitButton } from '../../components/SubmitButton';
import { useForm } from '../../lib/form';
import { namespacePath } from '../../lib/paths';
import { useReadOnly } from '../../api/meta';
import { useFlagMutations, type FlagValues } from './queries';
import { flagSchema } from './schemas';

interface FormValues extends FlagValues {
  defaultVariantId: string;
}

function initialValues(flag?: Flag): FormValues {
  return {
    key: flag?.key ?? '',
    name: flag?.name ?? '',
    description: flag?.description ?? '',
    type: flag?.type ?? 'VARIANT_FLAG_TYPE',
    enabled: flag?.enabled ?? false,
    defaultVariantId: flag?.defaultVariant?.id ?? '',
  };
}

/** Creates a flag (no `flag`) or edits one; the key and type are chosen only at creation. */
export function FlagForm({ namespaceKey, flag }: { namespaceKey: string; flag?: Flag }) {
  const save = useSaveEntity('flag');
  const readOnly = useReadOnly();
  const mutations = useFlagMutations(namespaceKey);
  const initial = initialValues(flag);
  const form = useForm(initial, flagSchema);
  const { values } = form;
  const editing = Boolean(flag);
  const submitting = mutations.create.isPending || mutations.update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { defaultVariantId, ...flagValues } = values;
    return save({
      update:
        flag &&
        (() =>
          mutations.update.mutateAsync({
            flagKey: flag.key,
            values: flagValues,
            defaultVariantId: defaultVariantId || null,
          })),
      create: () => mutations.create.mutateAsync(flagValues),
      createdHref: (key) => namespacePath(namespaceKey, `/flags/${encodeURIComponent(key)}`),
    });
  };

  return (
    <form className="form" onSubmit={submit}>
      <NameKeyFields form={form} editing={editing} readOnly={readOnly} />
      {!editing && (
        <fieldset className="radio-group">
          <legend>Type</legend>
          {(['VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE'] as FlagType[]).map((type) => (
            <label key={type}>
              <input
                type="radio"
                name="type"
                value={type}
                checked={values.type === type}
                disabled={readOnly}
                onChange={() => form.update({ type, enabled: false })}
              />
              {type === 'VARIANT_FLAG_TYPE' ? 'Variant' : 'Boolean'}
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
            name="enabled"
            checked={values.enabled}
            disabled={readOnly}
            onChange={(event) => form.set('enabled', event.target.checked)}
          />
          Enabled
        </label>
      )}
      <Field label="Description">
        {(props) => (
          <input
            {...props}
            name="description"
            value={values.description}
            disabled={readOnly}
            onChange={(event) => form.set('description', event.target.value)}
          />
        )}
      </Field>
      {flag && flag.type === 'VARIANT_FLAG_TYPE' && flag.variants.length > 0 && (
        <Picker
          label="Default Variant"
          placeholder="None"
          options={[NO_VARIANT, ...variantOptions(flag.variants)]}
          value={values.defaultVariantId}
          disabled={readOnly}
          onChange={(variantId) => form.set('defaultVariantId', variantId)}
        />
      )}
      <div className="form-actions">
        <SubmitButton
          label={editing ? 'Update' : 'Create'}
          submitting={submitting}
          ready={form.dirty && form.valid}
          readOnly={readOnly}
        />
      </div>
    </form>
  );
}
