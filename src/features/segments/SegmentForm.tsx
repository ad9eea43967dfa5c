import type { FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { MatchType, Segment } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { namespacePath } from '../../app/routes';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { nameKeySetters, useForm } from '../../lib/form';
import { toastError, toastSuccess } from '../../stores/toasts';
import { useReadOnly } from '../meta/queries';
import { useSegmentMutations, type SegmentValues } from './queries';
import { MATCH_TYPES } from './operators';
import { segmentSchema } from './schemas';

/** Creates a segment (no `segment`) or edits one; the key is chosen only at creation. */
export function SegmentForm({ namespaceKey, segment }: { namespaceKey: string; segment?: Segment }) {
  const [, navigate] = useLocation();
  const readOnly = useReadOnly();
  const mutations = useSegmentMutations(namespaceKey);
  const form = useForm<SegmentValues>(
    {
      key: segment?.key ?? '',
      name: segment?.name ?? '',
      description: segment?.description ?? '',
      matchType: segment?.matchType ?? 'ALL_MATCH_TYPE',
    },
    segmentSchema,
  );
  const { values } = form;
  const editing = Boolean(segment);
  const submitting = mutations.create.isPending || mutations.update.isPending;

  const { setName, setKey } = nameKeySetters(form, !editing);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      if (editing) {
        await mutations.update.mutateAsync(values);
        toastSuccess('Successfully updated segment');
      } else {
        const created = await mutations.create.mutateAsync(values);
        toastSuccess('Successfully created segment');
        navigate(namespacePath(namespaceKey, `/segments/${encodeURIComponent(created.key)}`));
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
      <Field label="Description">
        {(props) => (
          <input {...props} name="description" value={values.description} disabled={readOnly} onChange={(event) => form.set('description', event.target.value)} />
        )}
      </Field>
      <fieldset className="radio-group">
        <legend>Match Type</legend>
        {MATCH_TYPES.map(({ matchType, label, description }) => (
          <label key={matchType}>
            <input
              type="radio"
              name="matchType"
              value={matchType}
              checked={values.matchType === matchType}
              disabled={readOnly}
              onChange={() => form.set('matchType', matchType as MatchType)}
            />
            {label}
            <span className="muted">{description}</span>
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <SubmitButton label={editing ? 'Update' : 'Create'} submitting={submitting} ready={form.dirty && form.valid} readOnly={readOnly} />
      </div>
    </form>
  );
}
