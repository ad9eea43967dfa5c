import { useId, useState, type FormEvent } from 'react';
import type { Rollout, Segment } from '../../../../domain/flipt/types';
import { Field } from '../../../components/Field';
import { SegmentsPicker } from '../../../components/SegmentsPicker';
import { SubmitButton } from '../../../components/SubmitButton';
import { segmentsOf } from '../../../lib/segments';
import type { RolloutValues } from './api';
import { useSubmitting } from '../../../lib/form';

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

export function rolloutError(values: RolloutValues): string | undefined {
  if (values.kind === 'threshold') {
    return Number.isFinite(values.percentage) && values.percentage >= 0 && values.percentage <= 100
      ? undefined
      : PERCENTAGE_MESSAGE;
  }
  return values.segmentKeys.length ? undefined : 'Choose at least one segment';
}

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
  const [values, setValues] = useState<RolloutValues>(initial);
  const [submitting, track] = useSubmitting();
  const kindName = useId();
  const error = rolloutError(values);
  const dirty = JSON.stringify(values) !== JSON.stringify(initial);

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
              onChange={() => setValues({ ...NEW_THRESHOLD, description: values.description })}
            />
            Threshold
          </label>
          <label className="choice">
            <input
              type="radio"
              name={kindName}
              checked={values.kind === 'segment'}
              onChange={() => setValues({ ...NEW_SEGMENT, description: values.description })}
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
              onChange={(event) => setValues({ ...values, percentage: event.target.valueAsNumber })}
            />
          )}
        </Field>
      ) : (
        <SegmentsPicker
          segmentKeys={values.segmentKeys}
          available={segments}
          operator={values.segmentOperator}
          onChange={(segmentKeys, segmentOperator) => setValues({ ...values, segmentKeys, segmentOperator })}
        />
      )}
      <Field label="Value">
        {(props) => (
          <select
            {...props}
            value={String(values.value)}
            onChange={(event) => setValues({ ...values, value: event.target.value === 'true' })}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        )}
      </Field>
      <Field label="Description">
        {(props) => (
          <input
            {...props}
            value={values.description}
            onChange={(event) => setValues({ ...values, description: event.target.value })}
          />
        )}
      </Field>
      <div className="form-actions">
        <SubmitButton label={rollout ? 'Update' : 'Create'} submitting={submitting} ready={dirty && !error} />
      </div>
    </form>
  );
}
