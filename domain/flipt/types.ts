/**
 * Wire types of the Flipt v1 REST API: the JSON the server emits and the console reads.
 * Field names are protobuf JSON names (lowerCamelCase); timestamps are RFC 3339 UTC strings;
 * enums travel as their names.
 */

/** The namespace every installation has, and the one an empty namespace key resolves to. */
export const DEFAULT_NAMESPACE = 'default';

export type FlagType = 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE';
export const FLAG_TYPES: readonly FlagType[] = ['VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE'];

export type MatchType = 'ALL_MATCH_TYPE' | 'ANY_MATCH_TYPE';
export const MATCH_TYPES: readonly MatchType[] = ['ALL_MATCH_TYPE', 'ANY_MATCH_TYPE'];

export type SegmentOperator = 'OR_SEGMENT_OPERATOR' | 'AND_SEGMENT_OPERATOR';
export const SEGMENT_OPERATORS: readonly SegmentOperator[] = ['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR'];

export type ComparisonType =
  | 'UNKNOWN_COMPARISON_TYPE'
  | 'STRING_COMPARISON_TYPE'
  | 'NUMBER_COMPARISON_TYPE'
  | 'BOOLEAN_COMPARISON_TYPE'
  | 'DATETIME_COMPARISON_TYPE'
  | 'ENTITY_ID_COMPARISON_TYPE';
export const COMPARISON_TYPES: readonly ComparisonType[] = [
  'UNKNOWN_COMPARISON_TYPE',
  'STRING_COMPARISON_TYPE',
  'NUMBER_COMPARISON_TYPE',
  'BOOLEAN_COMPARISON_TYPE',
  'DATETIME_COMPARISON_TYPE',
  'ENTITY_ID_COMPARISON_TYPE',
];

export type RolloutType = 'UNKNOWN_ROLLOUT_TYPE' | 'SEGMENT_ROLLOUT_TYPE' | 'THRESHOLD_ROLLOUT_TYPE';
export const ROLLOUT_TYPES: readonly RolloutType[] = [
  'UNKNOWN_ROLLOUT_TYPE',
  'SEGMENT_ROLLOUT_TYPE',
  'THRESHOLD_ROLLOUT_TYPE',
];

export interface Namespace {
  key: string;
  name: string;
  description: string;
  protected: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Variant {
  id: string;
  flagKey: string;
  key: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  /** A string holding JSON (compacted), or "" when there is none. */
  attachment: string;
  namespaceKey: string;
}

export interface Flag {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  variants: Variant[];
  namespaceKey: string;
  type: FlagType;
  /** Omitted when the flag has no default variant. */
  defaultVariant?: Variant;
  /** Omitted by Get when unset; List always emits `{}`. */
  metadata?: Record<string, unknown>;
}

export interface Constraint {
  id: string;
  segmentKey: string;
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
  createdAt: string;
  updatedAt: string;
  namespaceKey: string;
  description: string;
}

export interface Segment {
  key: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  constraints: Constraint[];
  matchType: MatchType;
  namespaceKey: string;
}

export interface Distribution {
  id: string;
  ruleId: string;
  variantId: string;
  rollout: number;
  createdAt: string;
  updatedAt: string;
}

export interface Rule {
  id: string;
  flagKey: string;
  /** Populated when the rule has exactly one segment ("" otherwise). */
  segmentKey: string;
  distributions: Distribution[];
  rank: number;
  createdAt: string;
  updatedAt: string;
  namespaceKey: string;
  /** Populated when the rule has two or more segments ([] otherwise). */
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
}

export interface RolloutSegment {
  segmentKey: string;
  value: boolean;
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
}

export interface RolloutThreshold {
  percentage: number;
  value: boolean;
}

export interface Rollout {
  id: string;
  namespaceKey: string;
  flagKey: string;
  type: RolloutType;
  rank: number;
  description: string;
  createdAt: string;
  updatedAt: string;
  segment?: RolloutSegment;
  threshold?: RolloutThreshold;
}

interface Page {
  nextPageToken: string;
  totalCount: number;
}
export interface NamespaceList extends Page {
  namespaces: Namespace[];
}
export interface FlagList extends Page {
  flags: Flag[];
}
export interface SegmentList extends Page {
  segments: Segment[];
}
export interface RuleList extends Page {
  rules: Rule[];
}
/** Flipt names the rollouts of a RolloutList `rules`. */
export interface RolloutList extends Page {
  rules: Rollout[];
}

/** Flipt's error body. */
export interface ApiErrorBody {
  code: number;
  message: string;
  details: unknown[];
}
