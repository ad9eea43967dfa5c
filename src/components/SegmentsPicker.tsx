import { useId } from 'react';
import type { SegmentOperator } from '../../domain/flipt/types';

export const SEGMENT_OPERATOR_LABELS: Record<SegmentOperator, string> = {
  OR_SEGMENT_OPERATOR: 'OR',
  AND_SEGMENT_OPERATOR: 'AND',
};

/** Picks one or more segments and, when several, whether any (OR) or all (AND) must match. */
export function SegmentsPicker({
  segmentKeys,
  available,
  operator,
  onChange,
}: {
  segmentKeys: string[];
  available: string[];
  operator: SegmentOperator;
  onChange(segmentKeys: string[], operator: SegmentOperator): void;
}) {
  const name = useId();
  return (
    <>
      <fieldset className="field">
        <legend>Segments</legend>
        {available.length === 0 && <p className="muted">Create a segment first.</p>}
        <div className="choice-list">
          {available.map((key) => (
            <label key={key} className="choice">
              <input
                type="checkbox"
                checked={segmentKeys.includes(key)}
                onChange={(event) =>
                  onChange(
                    event.target.checked ? [...segmentKeys, key] : segmentKeys.filter((candidate) => candidate !== key),
                    operator,
                  )
                }
              />
              {key}
            </label>
          ))}
        </div>
      </fieldset>
      {segmentKeys.length > 1 && (
        <fieldset className="field">
          <legend>Segment operator</legend>
          <label className="choice">
            <input
              type="radio"
              name={name}
              checked={operator === 'OR_SEGMENT_OPERATOR'}
              onChange={() => onChange(segmentKeys, 'OR_SEGMENT_OPERATOR')}
            />
            OR: any of the segments
          </label>
          <label className="choice">
            <input
              type="radio"
              name={name}
              checked={operator === 'AND_SEGMENT_OPERATOR'}
              onChange={() => onChange(segmentKeys, 'AND_SEGMENT_OPERATOR')}
            />
            AND: all of the segments
          </label>
        </fieldset>
      )}
    </>
  );
}
