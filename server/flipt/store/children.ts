import { sql } from 'kysely';
import type { Database as Tables } from '../../db/schema.js';
import type { Executor } from '../../db/executor.js';
import { ORDER } from './pagination.js';

/** Parent keys per `in (...)` list when children are read by their parents. */
const MAX_KEYS_IN_QUERY = 500;

/** The key column naming each child table's parent: a flag's variants, a segment's constraints. */
const PARENT_COLUMN = { variants: 'flag_key', constraints: 'segment_key' } as const;
type ChildTable = keyof typeof PARENT_COLUMN;

/** Beyond this many parent keys, children are read namespace-wide rather than by key lists. */
const MAX_KEYS_BY_LIST = 10 * MAX_KEYS_IN_QUERY;

/**
 * The children of the given parents in a namespace, oldest first (then by id), by parent key; every key
 * gets an entry. Keys are looked up MAX_KEYS_IN_QUERY at a time, so a page of a large namespace reads
 * only its own children; beyond MAX_KEYS_BY_LIST keys the whole namespace is read instead.
 */
export async function childrenByParent<T extends ChildTable>(
  { db }: Executor,
  table: T,
  namespaceKey: string,
  parentKeys: string[],
): Promise<Map<string, Tables[T][]>> {
  const byParent = new Map<string, Tables[T][]>(parentKeys.map((key) => [key, []]));
  if (parentKeys.length === 0) return byParent;
  const from: ChildTable = table;
  const column: 'flag_key' | 'segment_key' = PARENT_COLUMN[table];
  const read = async (keys?: string[]) => {
    let query = db.selectFrom(from).selectAll().where('namespace_key', '=', namespaceKey);
    if (keys) query = query.where(column, 'in', keys);
    for (const row of await query.orderBy('created_at').orderBy('id').execute()) {
      const parentKey = (row as unknown as Record<typeof column, string>)[column];
      byParent.get(parentKey)?.push(row as Tables[T]);
    }
  };
  if (parentKeys.length > MAX_KEYS_BY_LIST) await read();
  else {
    for (let start = 0; start < parentKeys.length; start += MAX_KEYS_IN_QUERY) {
      await read(parentKeys.slice(start, start + MAX_KEYS_IN_QUERY));
    }
  }
  return byParent;
}

/**
 * The rules or rollouts of the given flags of a namespace, each flag's in its list order, by flag key
 * (every key gets an entry): the flags' rows are read and made into API objects by `fromRows`
 * MAX_KEYS_IN_QUERY at a time, so a page of flags costs a few queries whatever its size.
 */
export async function rankedByFlag<T extends 'rules' | 'rollouts', R extends { flagKey: string }>(
  executor: Executor,
  table: T,
  namespaceKey: string,
  flagKeys: string[],
  fromRows: (executor: Executor, rows: Tables[T][]) => Promise<R[]>,
): Promise<Map<string, R[]>> {
  const byFlag = new Map<string, R[]>(flagKeys.map((key) => [key, []]));
  const from: 'rules' | 'rollouts' = table;
  for (let start = 0; start < flagKeys.length; start += MAX_KEYS_IN_QUERY) {
    let query = executor.db
      .selectFrom(from)
      .selectAll()
      .where('namespace_key', '=', namespaceKey)
      .where('flag_key', 'in', flagKeys.slice(start, start + MAX_KEYS_IN_QUERY))
      .orderBy('flag_key');
    for (const column of ORDER[table]) query = query.orderBy(sql.ref(column));
    const rows = (await query.execute()) as Tables[T][];
    for (let first = 0; first < rows.length; first += MAX_KEYS_IN_QUERY) {
      for (const item of await fromRows(executor, rows.slice(first, first + MAX_KEYS_IN_QUERY))) {
        byFlag.get(item.flagKey)?.push(item);
      }
    }
  }
  return byFlag;
}
