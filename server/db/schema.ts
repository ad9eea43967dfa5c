/**
 * The tables of Ensign's database, as Kysely sees them. One interface per table; columns use the
 * representation both dialects share (see `codec.ts`): booleans read back through `toBool`, enums
 * as their Flipt names, timestamps as RFC 3339 text, JSON as text.
 * Each area adds its tables here together with its migration.
 */
import type { Generated } from 'kysely';

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

export interface SurveyProductsTable extends Timestamps {
  id: string;
  name: string;
  /** JSON object: the product's widget settings (brand colour, placement, recontact days, ...). */
  settings: string;
  /** The Flipt namespace the product belongs to. */
  namespace_key: string;
}

export interface SurveyEnvironmentsTable extends Timestamps {
  id: string;
  product_id: string;
  type: string;
  widget_setup_completed: Bool;
  /** The SDK generations seen syncing, comma-separated (migration 0016). */
  sdk_generations: Generated<string>;
}

export interface SurveysTable extends Timestamps {
  id: string;
  environment_id: string;
  name: string;
  /** JSON: the survey document without id, environmentId and timestamps. */
  document: string;
  /** The document's `linkedFlag.flagKey` and `segmentKey`, kept as columns for deletes to check. */
  linked_flag_key: string | null;
  segment_key: string | null;
}

/** What a survey's linked flag gave the visitor at display time (all null for a survey with no link). */
interface FlagAssignmentColumns {
  flag_key: string | null;
  flag_variant: string | null;
  flag_reason: string | null;
}

export interface SurveyActionClassesTable extends Timestamps {
  id: string;
  environment_id: string;
  name: string;
  description: string | null;
  type: string;
  no_code_config: string | null;
}

export interface SurveyPeopleTable extends Timestamps {
  id: string;
  environment_id: string;
  user_id: string;
}

export interface SurveyAttributesTable extends Timestamps {
  person_id: string;
  key: string;
  value: string;
}

export interface SurveyActionsTable extends Timestamps {
  id: string;
  environment_id: string;
  person_id: string;
  action_class_id: string;
}

export interface SurveyDisplaysTable extends Timestamps, FlagAssignmentColumns {
  id: string;
  environment_id: string;
  survey_id: string;
  person_id: string | null;
  response_id: string | null;
}

export interface SurveyResponsesTable extends Timestamps, FlagAssignmentColumns {
  id: string;
  environment_id: string;
  survey_id: string;
  person_id: string | null;
  finished: Bool;
  data: string;
  ttc: string;
  meta: string;
  person_attributes: string | null;
}

export interface SurveyFilesTable {
  id: string;
  environment_id: string;
  survey_id: string;
  file_name: string;
  file_type: string;
  size: number;
  created_at: string;
}

export interface SurveyApiKeysTable {
  id: string;
  environment_id: string;
  /** Hex SHA-256 of the key. */
  hashed_key: string;
  label: string;
  /** The key's first characters, to tell keys apart in the console (the key itself is never stored). */
  key_prefix: string;
  created_at: string;
}

export interface SurveyTagsTable extends Timestamps {
  id: string;
  environment_id: string;
  name: string;
}

export interface SurveyResponseTagsTable {
  response_id: string;
  tag_id: string;
}

export interface SurveyResponseNotesTable extends Timestamps {
  id: string;
  response_id: string;
  author: string;
  text: string;
  is_resolved: Bool;
  is_edited: Bool;
}

export interface SurveyWebhooksTable extends Timestamps {
  id: string;
  environment_id: string;
  name: string | null;
  url: string;
  /** `user` (made in the console) or `api` (the management API). */
  source: string;
  /** JSON array of trigger names. */
  triggers: string;
  /** JSON array of survey ids; empty means every survey. */
  survey_ids: string;
  secret: string;
  /** When deliveries stopped after failing again and again; null while delivering. */
  paused_at: string | null;
  /** Failed attempts since the last delivery that went through. */
  failures_in_a_row: Generated<number>;
}

/** A response as some webhooks are sent it: stored once, its deliveries refer to it. */
export interface SurveyWebhookPayloadsTable {
  id: string;
  environment_id: string;
  /** The response as the management API gives it, JSON. */
  data: string;
  created_at: string;
}

export interface SurveyWebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  payload_id: string;
  /** `pending` or `failed` (given up); delivered rows are deleted. */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
}

export interface AuthenticationsTable extends Timestamps {
  id: string;
  method: string;
  hashed_client_token: string;
  /** JSON object of strings. */
  metadata: string;
  expires_at: string | null;
}

/** Evaluations counted per namespace, flag and minute (Unix minutes, UTC). */
export interface FlagEvaluationCountsTable {
  namespace_key: string;
  flag_key: string;
  minute: number;
  count: number;
}

/** One change to a namespace, flag or segment (migration 0010). */
export interface HistoryTable {
  id: Generated<number>;
  namespace_key: string;
  /** 'namespace' | 'flag' | 'segment' */
  entity_type: string;
  entity_key: string;
  /** The audit event's type: flag, variant, segment, constraint, rule, distribution, rollout, namespace. */
  noun: string;
  /** created | updated | deleted */
  action: string;
  /** Who, as the console shows and filters it (an email, a token's name, "anonymous"). */
  actor: string;
  /** JSON: the audit event's `metadata.actor`. */
  actor_metadata: string;
  before: string | null;
  after: string | null;
  payload: string;
  created_at: string;
}

/** Per audit sink, the last history row it delivered and which instance is delivering. */
export interface AuditCursorsTable {
  sink: string;
  last_id: number | string;
  holder: string;
  lease_until: string;
}

/**
 * Survey result rollups (migration 0013), kept in the transaction of every response and display write:
 * responses per UTC day, finished and answer pattern (the summary's group key, see store/rollups.ts).
 */
export interface SurveyResultGroupsTable {
  survey_id: string;
  day: string;
  finished: Bool;
  pattern: string;
  responses: number | string;
}

/** Per UTC day, finished and question (or `_total`): the sum and number of the non-zero times to complete. */
export interface SurveyResultTimesTable {
  survey_id: string;
  day: string;
  finished: Bool;
  question_id: string;
  total: number | string;
  answers: number | string;
}

export interface SurveyResultDisplaysTable {
  survey_id: string;
  day: string;
  displays: number | string;
}

/** Which survey definition (questions, choices, hidden fields) a survey's rollups were made for. */
export interface SurveyResultRollupsTable {
  survey_id: string;
  fingerprint: string;
}

export interface FlagGuardsTable extends Timestamps {
  id: string;
  namespace_key: string;
  flag_key: string;
  survey_id: string;
  environment_id: string;
  question_id: string;
  /** What an answer counts as: nps, rating or share (of `answer`). */
  measure: string;
  /** The choice whose share a choice question's guard reads; null for NPS and rating. */
  answer: string | null;
  baseline: string;
  minimum_regression: number;
  action: string;
  error_rate: number;
  minimum_sample: number;
  state: string;
  reason: string;
  /** JSON `{estimate, lower, upper}`, or null. */
  difference: string | null;
  acted_at: string | null;
  /** Counts the display and response writes to the guard's arms; `assessed_revision` is the last one assessed. */
  revision: Generated<number | string>;
  assessed_revision: Generated<number | string>;
}

/** A guard's running sums for one value of its flag (a variant key, or "true" / "false"). */
export interface FlagGuardArmsTable {
  guard_id: string;
  arm: string;
  displays: Generated<number | string>;
  answers: Generated<number | string>;
  total: Generated<number>;
  total_of_squares: Generated<number>;
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
  survey_products: SurveyProductsTable;
  survey_environments: SurveyEnvironmentsTable;
  surveys: SurveysTable;
  survey_action_classes: SurveyActionClassesTable;
  survey_people: SurveyPeopleTable;
  survey_attributes: SurveyAttributesTable;
  survey_actions: SurveyActionsTable;
  survey_displays: SurveyDisplaysTable;
  survey_responses: SurveyResponsesTable;
  survey_files: SurveyFilesTable;
  survey_api_keys: SurveyApiKeysTable;
  survey_tags: SurveyTagsTable;
  survey_response_tags: SurveyResponseTagsTable;
  survey_response_notes: SurveyResponseNotesTable;
  survey_webhooks: SurveyWebhooksTable;
  survey_webhook_deliveries: SurveyWebhookDeliveriesTable;
  survey_webhook_payloads: SurveyWebhookPayloadsTable;
  survey_result_groups: SurveyResultGroupsTable;
  survey_result_times: SurveyResultTimesTable;
  survey_result_displays: SurveyResultDisplaysTable;
  survey_result_rollups: SurveyResultRollupsTable;
  flag_evaluation_counts: FlagEvaluationCountsTable;
  history: HistoryTable;
  audit_cursors: AuditCursorsTable;
  flag_guards: FlagGuardsTable;
  flag_guard_arms: FlagGuardArmsTable;
}
