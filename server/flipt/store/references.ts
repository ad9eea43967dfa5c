import type { Insertable } from 'kysely';
import type { Database as Tables } from '../../db/schema.js';
import type { Executor } from '../../db/executor.js';

/** Where rules and rollouts keep the keys of the segments they match, and the column naming the owner. */
const REFERENCES = {
  rules: { table: 'rule_segments', owner: 'rule_id' },
  rollouts: { table: 'rollout_segment_references', owner: 'rollout_id' },
} as const;
type Owner = keyof typeof REFERENCES;
type ReferenceTable = (typeof REFERENCES)[Owner]['table'];
/** A reference row as read or written here: only its owner's id column is ever looked at or set. */
type ReferenceRow = { namespace_key: string; segment_key: string } & Record<'rule_id' | 'rollout_id', string>;

/** The segment keys of each rule or rollout (sorted), by its id; ids without references have no entry. */
export async function segmentKeysOf({ db }: Executor, owner: Owner, ids: string[]): Promise<Map<string, string[]>> {
  const { table, owner: column }: { table: ReferenceTable; owner: 'rule_id' | 'rollout_id' } = REFERENCES[owner];
  const found = await db.selectFrom(table).selectAll().where(column, 'in', ids).orderBy('segment_key').execute();
  const rows = found as unknown as ReferenceRow[];
  const byOwner = new Map<string, string[]>();
  for (const row of rows) {
    const keys = byOwner.get(row[column]);
    if (keys) keys.push(row.segment_key);
    else byOwner.set(row[column], [row.segment_key]);
  }
  return byOwner;
}

/** The rows recording the segments a rule or rollout matches. */
export function segmentKeyRows<O extends Owner>(
  owner: O,
  id: string,
  namespaceKey: string,
  segmentKeys: string[],
): Insertable<Tables[(typeof REFERENCES)[O]['table']]>[] {
  const column = REFERENCES[owner].owner;
  return segmentKeys.map(
    (segmentKey) =>
      ({ [column]: id, namespace_key: namespaceKey, segment_key: segmentKey }) as unknown as Insertable<
        Tables[(typeof REFERENCES)[O]['table']]
      >,
  );
}

/** Records the segments a rule or rollout matches. */
export async function insertSegmentKeys(
  { db }: Executor,
  owner: Owner,
  id: string,
  namespaceKey: string,
  segmentKeys: string[],
): Promise<void> {
  await db
    .insertInto(REFERENCES[owner].table as ReferenceTable)
    .values(segmentKeyRows(owner, id, namespaceKey, segmentKeys) as unknown as ReferenceRow[])
    .execute();
}
