import type {
  SnapshotComparisonType,
  SnapshotConstraint,
  SnapshotDocument,
  SnapshotFlag,
  SnapshotRollout,
  SnapshotRule,
  SnapshotSegment,
} from '../../../../domain/evaluation/index.js';

/** Small builders for snapshot documents in engine tests. */
export function constraint(type: string, property: string, operator: string, value = ''): SnapshotConstraint {
  return {
    id: `${property}-${operator}`,
    type: `${type}_CONSTRAINT_COMPARISON_TYPE` as SnapshotComparisonType,
    property,
    operator,
    value,
  };
}

export function segment(
  key: string,
  constraints: SnapshotConstraint[],
  matchType: 'ALL' | 'ANY' = 'ALL',
): SnapshotSegment {
  return {
    key,
    name: '',
    description: '',
    matchType: `${matchType}_SEGMENT_MATCH_TYPE`,
    constraints,
  };
}

export function rule(
  segments: SnapshotSegment[],
  distributions: [variantKey: string, rollout: number][],
  operator: 'OR' | 'AND' = 'OR',
): SnapshotRule {
  return {
    id: `rule-${Math.random()}`,
    rank: 0,
    segments,
    segmentOperator: `${operator}_SEGMENT_OPERATOR`,
    distributions: distributions.map(([variantKey, rollout]) => ({
      id: '',
      ruleId: '',
      variantId: `id-${variantKey}`,
      variantKey,
      variantAttachment: '',
      rollout,
    })),
  };
}

export function variantFlag(key: string, rules: SnapshotRule[], options: Partial<SnapshotFlag> = {}): SnapshotFlag {
  return {
    key,
    name: key,
    description: '',
    enabled: true,
    type: 'VARIANT_FLAG_TYPE',
    createdAt: null,
    updatedAt: null,
    rules: rules.map((r, i) => ({ ...r, rank: i + 1 })),
    rollouts: [],
    ...options,
  };
}

export function booleanFlag(key: string, rollouts: SnapshotRollout[], enabled = false): SnapshotFlag {
  return {
    key,
    name: key,
    description: '',
    enabled,
    type: 'BOOLEAN_FLAG_TYPE',
    createdAt: null,
    updatedAt: null,
    rules: [],
    rollouts: rollouts.map((r, i) => ({ ...r, rank: i + 1 })),
  };
}

export function threshold(percentage: number, value: boolean): SnapshotRollout {
  return { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 0, threshold: { percentage, value } };
}

export function segmentRollout(
  segments: SnapshotSegment[],
  value: boolean,
  operator: 'OR' | 'AND' = 'OR',
): SnapshotRollout {
  return {
    type: 'SEGMENT_ROLLOUT_TYPE',
    rank: 0,
    segment: { value, segmentOperator: `${operator}_SEGMENT_OPERATOR`, segments },
  };
}

export function document(flags: SnapshotFlag[], key = 'default'): SnapshotDocument {
  return { namespace: { key }, flags };
}
