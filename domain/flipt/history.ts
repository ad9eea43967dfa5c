/**
 * Ensign's change history (an addition to Flipt's API, docs/compatibility.md): the wire types of
 * `GET /api/v1/namespaces/{ns}/history`, shared by the server and the console.
 */
import type { Flag, Namespace, Rollout, Rule, Segment } from './types.js';

/** What a history entry is about: the console's History tabs are per flag and per segment. */
export type HistoryEntityType = 'namespace' | 'flag' | 'segment';
export const HISTORY_ENTITY_TYPES: readonly HistoryEntityType[] = ['namespace', 'flag', 'segment'];

/** Flipt's audit event types ("nouns"), `token` included (tokens have no history entries). */
export type AuditNoun =
  | 'flag'
  | 'variant'
  | 'segment'
  | 'constraint'
  | 'rule'
  | 'distribution'
  | 'rollout'
  | 'namespace'
  | 'token';
export const AUDIT_NOUNS: readonly AuditNoun[] = [
  'flag',
  'variant',
  'segment',
  'constraint',
  'rule',
  'distribution',
  'rollout',
  'namespace',
  'token',
];

export type AuditVerb = 'created' | 'updated' | 'deleted';
export const AUDIT_VERBS: readonly AuditVerb[] = ['created', 'updated', 'deleted'];

/** A flag as a whole: its fields and variants, its rules (with distributions) and rollouts, each in rank order. */
export interface FlagState {
  flag: Flag;
  rules: Rule[];
  rollouts: Rollout[];
}

export type EntityState = Namespace | FlagState | Segment;

/** Flipt's `metadata.actor` of an audit event. */
export interface ActorMetadata {
  authentication: string;
  ip?: string;
  email?: string;
  name?: string;
  picture?: string;
}

export interface HistoryEntry {
  id: string;
  namespaceKey: string;
  entityType: HistoryEntityType;
  entityKey: string;
  noun: AuditNoun;
  action: AuditVerb;
  /** Who, as the console shows it: an email, a name, a token's name, or "anonymous". */
  actor: string;
  actorMetadata: ActorMetadata;
  /** The whole entity before and after; null where it did not exist (or, for an import, is not kept). */
  before: EntityState | null;
  after: EntityState | null;
  /** The audit event's payload: the object written, or the request of a delete or a reorder. */
  payload: unknown;
  createdAt: string;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** Pass as `pageToken` for the next (older) page; "" on the last page. */
  nextPageToken: string;
}

/** `GET .../history/{id}/revert`: what reverting the entry would do. */
export interface RevertPreview {
  entry: HistoryEntry;
  /** The entity now, and the state the revert would give it (its state before the entry); null: absent. */
  current: EntityState | null;
  target: EntityState | null;
  /** Why the revert is impossible; absent when it is possible. */
  refusal?: string;
}
