/**
 * The tables of Ensign's database, as Kysely sees them. One interface per table; columns use the
 * representation both dialects share (see `codec.ts`): booleans read back through `toBool`, enums
 * as their Flipt names, timestamps as RFC 3339 text, JSON as text.
 * Each area adds its tables here together with its migration.
 */
type Bool = number | boolean;

interface Timestamps {
  created_at: string;
  updated_at: string;
}

export interface NamespacesTable extends Timestamps {
  key: string;
  name: string;
  description: string;
  protected: Bool;
}

export interface FlagsTable extends Timestamps {
  namespace_key: string;
  key: string;
  name: string;
  description: string;
  enabled: Bool;
  type: string;
  default_variant_id: string | null;
  /** JSON object text, or null when the flag has no metadata. */
  metadata: string | null;
}

export interface VariantsTable extends Timestamps {
  id: string;
  namespace_key: string;
  flag_key: string;
  key: string;
  name: string;
  description: string;
  attachment: string;
}

export interface SegmentsTable extends Timestamps {
  namespace_key: string;
  key: string;
  name: string;
  description: string;
  match_type: string;
}

export interface ConstraintsTable extends Timestamps {
  id: string;
  namespace_key: string;
  segment_key: string;
  type: string;
  property: string;
  operator: string;
  value: string;
  description: string;
}

export interface RulesTable extends Timestamps {
  id: string;
  namespace_key: string;
  flag_key: string;
  rank: number;
  segment_operator: string;
}

export interface RuleSegmentsTable {
  rule_id: string;
  namespace_key: string;
  segment_key: string;
}

export interface DistributionsTable extends Timestamps {
  id: string;
  rule_id: string;
  variant_id: string;
  rollout: number;
}

export interface RolloutsTable extends Timestamps {
  id: string;
  namespace_key: string;
  flag_key: string;
  type: string;
  rank: number;
  description: string;
}

export interface RolloutThresholdsTable {
  rollout_id: string;
  percentage: number;
  value: Bool;
}

export interface RolloutSegmentsTable {
  rollout_id: string;
  value: Bool;
  segment_operator: string;
}

export interface RolloutSegmentReferencesTable {
  rollout_id: string;
  namespace_key: string;
  segment_key: string;
}

export interface AuthenticationsTable extends Timestamps {
  id: string;
  method: string;
  hashed_client_token: string;
  /** JSON object of strings. */
  metadata: string;
  expires_at: string | null;
}

export interface Database {
  namespaces: NamespacesTable;
  flags: FlagsTable;
  variants: VariantsTable;
  segments: SegmentsTable;
  constraints: ConstraintsTable;
  rules: RulesTable;
  rule_segments: RuleSegmentsTable;
  distributions: DistributionsTable;
  rollouts: RolloutsTable;
  rollout_thresholds: RolloutThresholdsTable;
  rollout_segments: RolloutSegmentsTable;
  rollout_segment_references: RolloutSegmentReferencesTable;
  authentications: AuthenticationsTable;
}
