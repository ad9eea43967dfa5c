import { sql } from 'kysely';
import type {
  ActorMetadata,
  AuditNoun,
  AuditVerb,
  EntityState,
  HistoryEntityType,
  HistoryEntry,
  HistoryPage,
} from '../../../domain/flipt/history.js';
import type { Selectable } from 'kysely';
import type { HistoryTable } from '../../db/schema.js';
import { nowTimestamp } from '../../db/codec.js';
import { invalid } from '../errors.js';
import { compiledOnce, type Executor, writeCompiledOnce } from '../../db/executor.js';
import type { HistoryChange } from '../../changes.js';
import { findNamespace, namespaceFromRow } from './namespaces.js';
import { flagIfAny } from './flags.js';
import { segmentIfAny } from './segments.js';
import { rulesOfFlags } from './rules.js';
import { rolloutsOfFlags } from './rollouts.js';

/** Who made a change: the name the console shows and filters by, and the audit event's actor. */
export interface Actor {
  name: string;
  metadata: ActorMetadata;
}

/** Changes made by the server itself (git storage, a command-line import). */
export const SYSTEM_ACTOR: Actor = { name: 'system', metadata: { authentication: 'none' } };

/** What one write changed: the entity whose history it joins, and the audit event's type and action. */
export interface Change {
  entityType: HistoryEntityType;
  namespaceKey: string;
  entityKey: string;
  noun: AuditNoun;
  action: AuditVerb;
}

/** The whole entity as it is now in this transaction, or undefined when it does not exist. */
export async function stateOf(
  executor: Executor,
  type: HistoryEntityType,
  namespaceKey: string,
  key: string,
): Promise<EntityState | undefined> {
  if (type === 'namespace') {
    const row = await findNamespace(executor, key);
    return row && namespaceFromRow(row);
  }
  if (type === 'segment') return segmentIfAny(executor, namespaceKey, key);
  const flag = await flagIfAny(executor, namespaceKey, key);
  if (!flag) return undefined;
  const [rules, rollouts] = await Promise.all([
    rulesOfFlags(executor, namespaceKey, [key]),
    rolloutsOfFlags(executor, namespaceKey, [key]),
  ]);
  return { flag, rules: rules.get(key) ?? [], rollouts: rollouts.get(key) ?? [] };
}

/**
 * The state of a flag or segment as its latest history entry left it, read in one indexed query
 * instead of the entity's rows (a flag's are spread over six tables). Every change of a flag or
 * segment records an entry on it in the change's own transaction, except the changes of a namespace
 * wholesale (an import, emptying or deleting it), which record one on the namespace: so the latest
 * entry holds the entity's current state unless a namespace entry came after it. Returns undefined
 * when that is not known (no entry yet, data older than the history, or a namespace entry since):
 * then read the rows with `stateOf`. A field added to an entity's wire type later makes states
 * recorded before it incomplete: such a change must read the rows until its entities have new entries.
 */
export async function recordedState(
  executor: Executor,
  type: 'flag' | 'segment',
  namespaceKey: string,
  key: string,
): Promise<{ state: EntityState | undefined } | undefined> {
  const [row] = await latestEntry(executor, namespaceKey, type, key);
  if (!row || (row.namespaceEntryId !== null && Number(row.namespaceEntryId) > Number(row.id))) return undefined;
  return { state: row.after === null ? undefined : (JSON.parse(row.after) as EntityState) };
}

/** The entity's latest entry and the id of its namespace's latest entry: built once, run on every change. */
const latestEntry = compiledOnce((db, namespaceKey: string, type: string, key: string) =>
  db
    .selectFrom('history')
    .select(['id', 'after'])
    .select((eb) =>
      eb
        .selectFrom('history as wholesale')
        .select((inner) => inner.fn.max('wholesale.id').as('id'))
        .where('wholesale.namespace_key', '=', namespaceKey)
        .where('wholesale.entity_type', '=', 'namespace')
        .where('wholesale.entity_key', '=', namespaceKey)
        .as('namespaceEntryId'),
    )
    .where('namespace_key', '=', namespaceKey)
    .where('entity_type', '=', type)
    .where('entity_key', '=', key)
    .orderBy('id', 'desc')
    .limit(1),
);

/** An arbitrary constant naming the lock that orders history rows on PostgreSQL. */
const HISTORY_LOCK = 7_310_010;

/**
 * On PostgreSQL, makes the transactions that record history take turns, from this call to their
 * commit (SQLite's writes take turns already). Without it, concurrent transactions take row ids in
 * one order and could commit in another, so a sink reading "after id N" could skip one; and two
 * changes of one flag (a rule added while its fields are updated, which lock no common row) could
 * each read the flag's state before the other committed, so the latest entry would miss a change.
 * Taken before a change reads anything, and once per transaction (it is held to the commit).
 */
export async function takeHistoryTurn(executor: Executor): Promise<void> {
  if (executor.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${HISTORY_LOCK})`.execute(executor.db);
}

/**
 * Writes a history row in the change's transaction, unless the entity is just as it was (deleting
 * what is not there changes nothing and has no entry) and `evenIfUnchanged` is not set (an import's
 * entry on its namespace). The transaction has taken its turn (takeHistoryTurn) before reading the
 * states.
 */
export async function recordChange(
  executor: Executor,
  change: Change,
  actor: Actor,
  before: EntityState | undefined | null,
  after: EntityState | undefined | null,
  payload: unknown,
  { evenIfUnchanged = false } = {},
): Promise<number | undefined> {
  const beforeJson = before ? JSON.stringify(before) : null;
  const afterJson = after ? JSON.stringify(after) : null;
  if (beforeJson === afterJson && !evenIfUnchanged) return undefined;
  const [entry] = await insertEntry(
    executor,
    change.namespaceKey,
    change.entityType,
    change.entityKey,
    change.noun,
    change.action,
    actor.name,
    JSON.stringify(actor.metadata),
    beforeJson,
    afterJson,
    JSON.stringify(payload ?? {}),
    nowTimestamp(),
  );
  return Number(entry.id);
}

/** One history row: built once, run on every change; its id. */
const insertEntry = writeCompiledOnce(
  (
    db,
    namespace_key: string,
    entity_type: string,
    entity_key: string,
    noun: string,
    action: string,
    actor: string,
    actor_metadata: string,
    before: string | null,
    after: string | null,
    payload: string,
    created_at: string,
  ) =>
    db
      .insertInto('history')
      .values({
        namespace_key,
        entity_type,
        entity_key,
        noun,
        action,
        actor,
        actor_metadata,
        before,
        after,
        payload,
        created_at,
      })
      .returning('id'),
);

export function entryFromRow(row: Selectable<HistoryTable>): HistoryEntry {
  return {
    id: String(row.id),
    namespaceKey: row.namespace_key,
    entityType: row.entity_type as HistoryEntityType,
    entityKey: row.entity_key,
    noun: row.noun as AuditNoun,
    action: row.action as AuditVerb,
    actor: row.actor,
    actorMetadata: JSON.parse(row.actor_metadata) as ActorMetadata,
    before: row.before === null ? null : (JSON.parse(row.before) as EntityState),
    after: row.after === null ? null : (JSON.parse(row.after) as EntityState),
    payload: JSON.parse(row.payload) as unknown,
    createdAt: row.created_at,
  };
}

export interface HistoryQuery {
  entityType?: HistoryEntityType;
  entityKey?: string;
  actor?: string;
  /** RFC 3339 bounds on the entry's time, inclusive. */
  since?: string;
  until?: string;
  limit: number;
  /** The id of the last entry of the previous page (newest first), as a decimal string. */
  pageToken?: string;
}

/** A page of a namespace's history, newest first, read by keyset on the row id. */
export async function listHistory(executor: Executor, namespaceKey: string, query: HistoryQuery): Promise<HistoryPage> {
  let select = executor.db.selectFrom('history').selectAll().where('namespace_key', '=', namespaceKey);
  if (query.entityType) select = select.where('entity_type', '=', query.entityType);
  if (query.entityKey !== undefined) select = select.where('entity_key', '=', query.entityKey);
  if (query.actor !== undefined) select = select.where('actor', '=', query.actor);
  if (query.since) select = select.where('created_at', '>=', query.since);
  if (query.until) select = select.where('created_at', '<=', query.until);
  if (query.pageToken) {
    if (!/^[1-9][0-9]{0,17}$/.test(query.pageToken)) throw invalid(`pageToken is not valid: "${query.pageToken}"`);
    select = select.where('id', '<', Number(query.pageToken));
  }
  const rows = await select
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const entries = rows.slice(0, query.limit).map(entryFromRow);
  const nextPageToken = rows.length > query.limit ? entries[entries.length - 1].id : '';
  return { entries, nextPageToken };
}

export async function historyEntry(
  executor: Executor,
  namespaceKey: string,
  id: string,
): Promise<HistoryEntry | undefined> {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) return undefined;
  const row = await executor.db
    .selectFrom('history')
    .selectAll()
    .where('namespace_key', '=', namespaceKey)
    .where('id', '=', Number(id))
    .executeTakeFirst();
  return row && entryFromRow(row);
}

/** Deletes the entries older than `before` (RFC 3339), a batch at a time; returns how many went. */
export async function deleteHistoryBefore(executor: Executor, before: string, batch = 5000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = await executor.db
      .selectFrom('history')
      .select('id')
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(batch)
      .execute();
    if (ids.length === 0) return deleted;
    await executor.db
      .deleteFrom('history')
      .where(
        'id',
        'in',
        ids.map((row) => row.id),
      )
      .execute();
    deleted += ids.length;
  }
}

/** The history's changes after entry `afterId` (all namespaces), oldest first, at most `limit`. */
export async function changesAfter(executor: Executor, afterId: number, limit: number): Promise<HistoryChange[]> {
  const rows = await executor.db
    .selectFrom('history')
    .select(['id', 'namespace_key', 'entity_type', 'entity_key'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    namespaceKey: row.namespace_key,
    entityType: row.entity_type as HistoryEntityType,
    entityKey: row.entity_key,
  }));
}

/** The id of the history's latest entry, 0 when it has none. */
export async function lastHistoryId(executor: Executor): Promise<number> {
  const row = await executor.db
    .selectFrom('history')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
