import type { Database as Tables } from '../../db/schema.js';
import { MAX_KEYS_IN_QUERY, type Executor } from './executor.js';

/** The key column naming each child table's parent: a flag's variants, a segment's constraints. */
const PARENT_COLUMN = { variants: 'flag_key', constraints: 'segment_key' } as const;
type ChildTable = keyof typeof PARENT_COLUMN;

/**
 * The children of the given parents in a namespace, oldest first (then by id), by parent key; every key
 * gets an entry. Beyond MAX_KEYS_IN_QUERY keys the whole namespace is read instead of a key list.
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
  let query = db.selectFrom(from).selectAll().where('namespace_key', '=', namespaceKey);
  if (parentKeys.length <= MAX_KEYS_IN_QUERY) query = query.where(column, 'in', parentKeys);
  for (const row of await query.orderBy('created_at').orderBy('id').execute()) {
    const parentKey = (row as unknown as Record<typeof column, string>)[column];
    byParent.get(parentKey)?.push(row as Tables[T]);
  }
  return byParent;
}
