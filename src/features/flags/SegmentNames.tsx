import type { Segment, SegmentOperator } from '../../../domain/flipt/types';
import { SEGMENT_OPERATOR_LABELS } from '../../components/SegmentsPicker';

/**
 * The segments of a rule or rollout as Flipt 1.59 and later show them, by name, with the key beside it
 * as the segment pickers show it; a segment not (yet) listed, or without a name, by its key.
 */
export function SegmentNames({
  segmentKeys,
  operator,
  segments,
}: {
  segmentKeys: string[];
  operator: SegmentOperator;
  segments: Pick<Segment, 'key' | 'name'>[];
}) {
  const names = new Map(segments.map((segment) => [segment.key, segment.name]));
  return (
    <p className="rule-segments">
      {segmentKeys.map((key, index) => {
        const name = names.get(key);
        return (
          <span key={key}>
            {index > 0 && <span className="operator"> {SEGMENT_OPERATOR_LABELS[operator]} </span>}
            {name && name !== key ? (
              <>
                {name} <code className="muted">{key}</code>
              </>
            ) : (
              <code>{key}</code>
            )}
          </span>
        );
      })}
    </p>
  );
}
