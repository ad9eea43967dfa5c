import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { Database as Tables } from '../../db/schema.js';
import type { Executor } from './executor.js';

/**
 * Rows per INSERT statement. The widest table has 10 columns, so a statement binds at most 5,000
 * values: well under SQLite's limit (32,766) and PostgreSQL's (65,535).
 */
const ROWS_PER_STATEMENT = 500;

/** New rows of an import, by table, in the order their foreign keys need them inserted. */
export interface ImportRows {
  segments: Insertable<Tables['segments']>[];
  constraints: Insertable<Tables['constraints']>[];
  flags: Insertable<Tables['flags']>[];
  variants: Insertable<Tables['variants']>[];
  rules: Insertable<Tables['rules']>[];
  rule_segments: Insertable<Tables['rule_segments']>[];
  distributions: Insertable<Tables['distributions']>[];
  rollouts: Insertable<Tables['rollouts']>[];
  rollout_thresholds: Insertable<Tables['rollout_thresholds']>[];
  rollout_segments: Insertable<Tables['rollout_segments']>[];
  rollout_segment_references: Insertable<Tables['rollout_segment_references']>[];
}

export const emptyImportRows = (): ImportRows => ({
  segments: [],
  constraints: [],
  flags: [],
  variants: [],
  rules: [],
  rule_segments: [],
  distributions: [],
  rollouts: [],
  rollout_thresholds: [],
  rollout_segments: [],
  rollout_segment_references: [],
});

/**
 * Inserts every row, table by table in foreign-key order, a few hundred rows per statement.
 * `analysed` holds the tables already analysed in this transaction (PostgreSQL, see below).
 */
export async function insertImportRows(
  { db, dialect }: Executor,
  rows: ImportRows,
  analysed: Set<string>,
): Promise<void> {
  for (const table of Object.keys(rows) as (keyof ImportRows)[]) {
    const all = rows[table] as Insertable<Tables[typeof table]>[];
    for (let start = 0; start < all.length; start += ROWS_PER_STATEMENT) {
      await db
        .insertInto(table)
        .values(all.slice(start, start + ROWS_PER_STATEMENT) as never)
        .execute();
    }
    // PostgreSQL plans the foreign-key checks of later batches from the tables' statistics; for
    // tables that were empty when last analysed it picks sequential scans, and an import of 10,000
    // flags took 19 s instead of 6 s. One ANALYZE per table and import, after its first rows, is
    // enough (it runs inside the transaction and sees its rows).
    if (dialect === 'postgres' && all.length && !analysed.has(table)) {
      await sql`analyze ${sql.table(table)}`.execute(db);
      analysed.add(table);
    }
  }
}

/** The keys of a namespace's flags or segments. */
export async function keysIn(
  { db }: Executor,
  table: 'flags' | 'segments',
  namespaceKey: string,
): Promise<Set<string>> {
  const rows = await db.selectFrom(table).select('key').where('namespace_key', '=', namespaceKey).execute();
  return new Set(rows.map((row) => row.key));
}
