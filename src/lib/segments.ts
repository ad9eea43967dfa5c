import type { SegmentOperator } from '../../domain/flipt/types';

/** The segment fields of a rule body: one segment travels as segmentKey, several as segmentKeys. */
export function segmentFields(segmentKeys: string[], segmentOperator: SegmentOperator) {
  return segmentKeys.length === 1
    ? { segmentKey: segmentKeys[0], segmentOperator: 'OR_SEGMENT_OPERATOR' as const }
    : { segmentKeys, segmentOperator };
}

/** The segments of a rule or rollout, whichever of segmentKey / segmentKeys the server populated. */
export const segmentsOf = (item: { segmentKey: string; segmentKeys: string[] }) =>
  item.segmentKeys.length ? item.segmentKeys : item.segmentKey ? [item.segmentKey] : [];
