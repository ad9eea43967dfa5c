import { useId } from 'react';
import type { Segment, SegmentOperator } from '../../domain/flipt/types';
import { Picker } from './Picker';
import { keyedOptions } from '../lib/options';

export const SEGMENT_OPERATOR_LABELS: Record<SegmentOperator, string> = {
  OR_SEGMENT_OPERATOR: 'OR',
  AND_SEGMENT_OPERATOR: 'AND',
};

/** Picks one or more segments by name or key and, when several, whether any (OR) or all (AND) must match. */
/** The segment operator's choices, in the order they are offered. */
const OPERATORS: [SegmentOperator, string][] = [
  ['OR_SEGMENT_OPERATOR', 'OR: any of the segments'],
  ['AND_SEGMENT_OPERATOR', 'AND: all of the segments'],
];

export function SegmentsPicker({
  segmentKeys,
  available,
  operator,
  onChange,
}: {
  segmentKeys: string[];
  available: Pick<Segment, 'key' | 'name'>[];
  operator: SegmentOperator;
  onChange(segmentKeys: string[], operator: SegmentOperator): void;
}) {
  const name = useId();
  return (
    <>
      {available.length === 0 ? (
        <p className="muted">Create a segment first.</p>
      ) : (
        <Picker
          label="Segments"
          placeholder="Choose segments"
          options={keyedOptions(available)}
          value={segmentKeys}
          onChange={(keys) => onChange(keys, operator)}
        />
      )}
      {segmentKeys.length > 1 && (
        <fieldset className="field">
          <legend>Segment operator</legend>
          {OPERATORS.map(([value, label]) => (
            <label key={value} className="choice">
              <input
                type="radio"
                name={name}
                checked={operator === value}
                onChange={() => onChange(segmentKeys, value)}
              />
              {label}
            </label>
          ))}
        </fieldset>
      )}
    </>
  );
}
