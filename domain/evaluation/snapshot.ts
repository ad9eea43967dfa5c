import type { FlagType, RolloutType, SegmentOperator } from '../flipt/types.js';

/**
 * The evaluation snapshot document of `GET /internal/v1/evaluation/snapshot/namespace/{key}`:
 * what the server sends to client-side engines and what our engine compiles.
 * Note the enum spellings that differ from the CRUD API (`ALL_SEGMENT_MATCH_TYPE`,
 * `STRING_CONSTRAINT_COMPARISON_TYPE`).
 */
export interface SnapshotDocument {
  namespace: { key: string };
  flags: SnapshotFlag[];
}

export interface SnapshotFlag {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: FlagType;
  createdAt: string | null;
  updatedAt: string | null;
  /** In rank order; `[]` for boolean flags. */
  rules: SnapshotRule[];
  /** In rank order; `[]` for variant flags. */
  rollouts: SnapshotRollout[];
  defaultVariant?: SnapshotVariant;
}

export interface SnapshotVariant {
  id: string;
  key: string;
  attachment: string;
}

export interface SnapshotRule {
  id: string;
  segments: SnapshotSegment[];
  rank: number;
  segmentOperator: SegmentOperator;
  /** In creation order. */
  distributions: SnapshotDistribution[];
}

export interface SnapshotDistribution {
  id: string;
  ruleId: string;
  variantId: string;
  variantKey: string;
  variantAttachment: string;
  rollout: number;
}

export interface SnapshotRollout {
  type: RolloutType;
  rank: number;
  segment?: { value: boolean; segmentOperator: SegmentOperator; segments: SnapshotSegment[] };
  threshold?: { percentage: number; value: boolean };
}

export type SnapshotMatchType = 'ALL_SEGMENT_MATCH_TYPE' | 'ANY_SEGMENT_MATCH_TYPE';

export type SnapshotComparisonType =
  | 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE'
  | 'STRING_CONSTRAINT_COMPARISON_TYPE'
  | 'NUMBER_CONSTRAINT_COMPARISON_TYPE'
  | 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE'
  | 'DATETIME_CONSTRAINT_COMPARISON_TYPE'
  | 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE';

export interface SnapshotSegment {
  key: string;
  name: string;
  description: string;
  matchType: SnapshotMatchType;
  /** A snapshot segment carries no timestamps: Flipt v1.54 and later omit them (v1.47 wrote `null`). */
  constraints: SnapshotConstraint[];
}

export interface SnapshotConstraint {
  id: string;
  type: SnapshotComparisonType;
  property: string;
  operator: string;
  value: string;
}

/** The snapshot spelling of a CRUD comparison type (`STRING_COMPARISON_TYPE` → `STRING_CONSTRAINT_COMPARISON_TYPE`). */
export function snapshotComparisonType(type: string): SnapshotComparisonType {
  const spelled = `${type.replace(/_COMPARISON_TYPE$/, '')}_CONSTRAINT_COMPARISON_TYPE`;
  return SNAPSHOT_COMPARISON_TYPES.has(spelled)
    ? (spelled as SnapshotComparisonType)
    : 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE';
}

const SNAPSHOT_COMPARISON_TYPES = new Set<string>([
  'STRING_CONSTRAINT_COMPARISON_TYPE',
  'NUMBER_CONSTRAINT_COMPARISON_TYPE',
  'BOOLEAN_CONSTRAINT_COMPARISON_TYPE',
  'DATETIME_CONSTRAINT_COMPARISON_TYPE',
  'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE',
]);

/** The snapshot spelling of a CRUD match type. */
export function snapshotMatchType(type: string): SnapshotMatchType {
  return type === 'ANY_MATCH_TYPE' ? 'ANY_SEGMENT_MATCH_TYPE' : 'ALL_SEGMENT_MATCH_TYPE';
}
