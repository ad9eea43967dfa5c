import { useId, type FormEvent } from 'react';
import * as v from 'valibot';
import { type Rollout, SEGMENT_OPERATORS, type Segment } from '../../../../domain/flipt/types';
import { Field, TextField } from '../../../components/Field';
import { SegmentsPicker } from '../../../components/SegmentsPicker';
import { SubmitButton } from '../../../components/SubmitButton';
import { segmentsOf } from '../../../lib/segments';
import type { RolloutValues } from './api';
import { useForm, useSubmitting, validate } from '../../../lib/form';

export const PERCENTAGE_MESSAGE = 'Percentage must be between 0 and 100';

export function rolloutValues(rollout: Rollout): RolloutValues {
  if (rollout.threshold) return { kind: 'threshold', description: rollout.description, ...rollout.threshold };
  const segment = rollout.segment!;
  return {
    kind: 'segment',
    description: rollout.description,
    segmentKeys: segmentsOf(segment),
    segmentOperator: segment.segmentOperator,
    value: segment.value,
  };
}

const NEW_THRESHOLD: RolloutValues = { kind: 'threshold', description: '', percentage: 50, value: true };
const NEW_SEGMENT: RolloutValues = {
  kind: 'segment',
  description: '',
  segmentKeys: [],
  segmentOperator: 'OR_SEGMENT_OPERATOR',
  value: true,
};

const percentageRule = v.pipe(
  v.number(PERCENTAGE_MESSAGE),
  v.minValue(0, PERCENTAGE_MESSAGE),
  v.maxValue(100, PERCENTAGE_MESSAGE),
);

/** The rollout form: a threshold (percentage and value) or segments (operator and value). */
const rolloutSchema = v.variant('kind', [
  v.object({ kind: v.literal('threshold'), description: v.string(), percentage: percentageRule, value: v.boolean() }),
  v.object({
    kind: v.literal('segment'),
    description: v.string(),
    segmentKeys: v.pipe(v.array(v.string()), v.minLength(1, 'Choose at least one segment')),
    segmentOperator: v.picklist(SEGMENT_OPERATORS),
    value: v.boolean(),
  }),
]);

/** The form's one problem, if it has one. */
export const rolloutError = (values: RolloutValues): string | undefined =>
  Object.values(validate(rolloutSchema, values))[0];

/** New and Edit Rollout: a threshold (percentage and value) or segments (operator and value). */
export function RolloutForm({
  rollout,
  segments,
  onSave,
}: {
  rollout?: Rollout;
  segments: Pick<Segment, 'key' | 'name'>[];
  onSave(values: RolloutValues): Promise<unknown>;
}) {
  const initial = rollout ? rolloutValues(rollout) : NEW_THRESHOLD;
  const form = useForm<RolloutValues>(initial, rolloutSchema);
  const { values } = form;
  const [submitting, track] = useSubmitting();
  const kindName = useId();
  const error = rolloutError(values);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    track(() => onSave(values));
  };

  return (
    <form className="form" onSubmit={submit}>
      {!rollout && (
        <fieldset className="field">
          <legend>Type</legend>
          <label className="choice">
            <input
              type="radio"
              name={kindName}
              checked={values.kind === 'threshold'}
              onChange={() => form.update({ ...NEW_THRESHOLD, description: values.description })}
            />
            Threshold
          </label>
          <label className="choice">
            <input
              type="radio"
              name={kindName}
              checked={values.kind === 'segment'}
              onChange={() => form.update({ ...NEW_SEGMENT, description: values.description })}
            />
            Segment
          </label>
        </fieldset>
      )}
      {values.kind === 'threshold' ? (
        <Field label="Percentage" error={error}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={0}
              max={100}
              step={0.01}
              value={Number.isFinite(values.percentage) ? values.percentage : ''}
              onChange={(event) => form.update({ percentage: event.target.valueAsNumber })}
            />
          )}
        </Field>
      ) : (
        <SegmentsPicker
          segmentKeys={values.segmentKeys}
          available={segments}
          operator={values.segmentOperator}
          onChange={(segmentKeys, segmentOperator) => form.update({ segmentKeys, segmentOperator })}
        />
      )}
      <Field label="Value">
        {(props) => (
          <select
            {...props}
            value={String(values.value)}
            onChange={(event) => form.update({ value: event.target.value === 'true' })}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        )}
      </Field>
      <TextField label="Description" {...form.field('description')} />
      <div className="form-actions">
        <SubmitButton label={rollout ? 'Update' : 'Create'} submitting={submitting} ready={form.dirty && !error} />
      </div>
    </form>
  );
}
