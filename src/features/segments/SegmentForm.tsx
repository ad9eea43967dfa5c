import type { FormEvent } from 'react';
import type { Segment } from '../../../domain/flipt/types';
import { namespacePath } from '../../lib/paths';
import { NameKeyFields, useSaveEntity } from '../../components/EntityForm';
import { TextField } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useForm } from '../../lib/form';
import { useWritable } from '../../api/writable';
import { type SegmentValues, useCreateSegment, useUpdateSegment } from './api';
import { MATCH_TYPES } from './operators';
import { segmentSchema } from './schemas';

/** Creates a segment (no `segment`) or edits one; the key is chosen only at creation. */
export function SegmentForm({ namespaceKey, segment }: { namespaceKey: string; segment?: Segment }) {
  const save = useSaveEntity('segment');
  const { disabled, reason } = useWritable();
  const create = useCreateSegment(namespaceKey);
  const update = useUpdateSegment(namespaceKey);
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
  const submitting = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return save({
      update: editing ? () => update.mutateAsync(values) : undefined,
      create: () => create.mutateAsync(values),
      createdHref: (key) => namespacePath(namespaceKey, `/segments/${encodeURIComponent(key)}`),
    });
  };

  return (
    <form className="form" onSubmit={submit}>
      <NameKeyFields form={form} editing={editing} />
      <TextField label="Description" disabled={disabled} {...form.field('description')} />
      <fieldset className="radio-group">
        <legend>Match Type</legend>
        {MATCH_TYPES.map(({ matchType, label, description }) => (
          <label key={matchType}>
            <input type="radio" disabled={disabled} {...form.radio('matchType', matchType)} />
            {label}
            <span className="muted">{description}</span>
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <SubmitButton
          label={editing ? 'Update' : 'Create'}
          submitting={submitting}
          ready={form.dirty && form.valid}
          reason={reason}
        />
      </div>
    </form>
  );
}
