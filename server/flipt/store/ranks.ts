import { nowTimestamp } from '../../db/codec.js';
import type { Executor } from '../../db/executor.js';

/** Rules and rollouts share their ranking: 1..n per flag. */
type RankedTable = 'rules' | 'rollouts';

/** Rewrites the ranks of a flag's rules or rollouts as 1..n in their current order (after a delete). */
export async function renumber(
  { db }: Executor,
  table: RankedTable,
  namespaceKey: string,
  flagKey: string,
): Promise<void> {
  const rows = await db
    .selectFrom(table)
    .select(['id', 'rank'])
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .orderBy('rank')
    .orderBy('created_at')
    .execute();
  for (const [index, row] of rows.entries()) {
    if (row.rank !== index + 1)
      await db
        .updateTable(table)
        .set({ rank: index + 1 })
        .where('id', '=', row.id)
        .execute();
  }
}

/** Ranks the given ids 1..n in array order; ids of other flags or unknown ids change nothing. */
export async function orderByIds(
  { db }: Executor,
  table: RankedTable,
  namespaceKey: string,
  flagKey: string,
  ids: string[],
): Promise<void> {
  const now = nowTimestamp();
  for (const [index, id] of ids.entries()) {
    await db
      .updateTable(table)
      .set({ rank: index + 1, updated_at: now })
      .where('id', '=', id)
      .where('namespace_key', '=', namespaceKey)
      .where('flag_key', '=', flagKey)
      .execute();
  }
}

/** Idempotent; deletes one rule or rollout of the flag and ranks the remaining ones 1..n again. */
export async function deleteRanked(
  executor: Executor,
  table: RankedTable,
  namespaceKey: string,
  flagKey: string,
  id: string,
): Promise<void> {
  await executor.db
    .deleteFrom(table)
    .where('id', '=', id)
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .execute();
  await renumber(executor, table, namespaceKey, flagKey);
}
