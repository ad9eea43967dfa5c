import type { FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { Flag, FlagType } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { nameKeySetters, useForm } from '../../lib/form';
import { toastError, toastSuccess } from '../../stores/toasts';
import { namespacePath } from '../../app/routes';
import { useReadOnly } from '../meta/queries';
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
  const [, navigate] = useLocation();
  const readOnly = useReadOnly();
  const mutations = useFlagMutations(namespaceKey);
  const initial = initialValues(flag);
  const form = useForm(initial, flagSchema);
  const { values } = form;
  const editing = Boolean(flag);
  const submitting = mutations.create.isPending || mutations.update.isPending;

  const { setName, setKey } = nameKeySetters(form, !editing);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { defaultVariantId, ...flagValues } = values;
    try {
      if (flag) {
        await mutations.update.mutateAsync({ flagKey: flag.key, values: flagValues, defaultVariantId: defaultVariantId || null });
        toastSuccess('Successfully updated flag');
      } else {
        const created = await mutations.create.mutateAsync(flagValues);
        toastSuccess('Successfully created flag');
        navigate(namespacePath(namespaceKey, `/flags/${encodeURIComponent(created.key)}`));
      }
    } catch (error) {
      toastError(errorMessage(error));
    }
  };

  return (
    <form className="form" onSubmit={submit}>
      <div className="form-grid">
        <Field label="Name" error={form.error('name')}>
          {(props) => <input {...props} name="name" value={values.name} disabled={readOnly} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <Field label="Key" error={form.error('key')}>
          {(props) => (
            <input
              {...props}
              name="key"
              value={values.key}
              disabled={editing || readOnly}
              onChange={(event) => setKey(event.target.value)}
            />
          )}
        </Field>
      </div>
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
          <input {...props} name="description" value={values.description} disabled={readOnly} onChange={(event) => form.set('description', event.target.value)} />
        )}
      </Field>
      {flag && flag.type === 'VARIANT_FLAG_TYPE' && flag.variants.length > 0 && (
        <Field label="Default Variant">
          {(props) => (
            <select {...props} value={values.defaultVariantId} disabled={readOnly} onChange={(event) => form.set('defaultVariantId', event.target.value)}>
              <option value="">None</option>
              {flag.variants.map((variant) => (
                <option key={variant.id} value={variant.id}>
                  {variant.key}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <div className="form-actions">
        <SubmitButton label={editing ? 'Update' : 'Create'} submitting={submitting} ready={form.dirty && form.valid} readOnly={readOnly} />
      </div>
    </form>
  );
}
