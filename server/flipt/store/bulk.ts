import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { Database as Tables } from '../../db/schema.js';
import type { Executor } from '../../db/executor.js';

/**
 * Rows per INSERT statement. Each statement binds the rows as arrays (PostgreSQL: one per column,
 * `unnest`; SQLite: one JSON array, `json_each`), so it stays small to parse, plan and keep whatever
 * its row count. With 500-row VALUES lists, planning took most of an import on PostgreSQL, and on
 * SQLite the prepared statements (freed only when the JS garbage collector got to them) held 700 MB
 * at 100,000 flags.
 */
const ROWS_PER_STATEMENT = 5000;

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
 * Readies a transaction for `insertImportRows`. PostgreSQL checks each inserted row's foreign keys
 * with a query it plans once and then keeps: planned when the import's first batch has made a parent
 * table a few hundred rows long, it scans the whole table, and goes on doing so while the table grows
 * to 100,000 rows (an import of 100,000 flags took 35 s, most of it in these checks). With sequential
 * scans off for the transaction, every check reads the parent's key index instead.
 */
export async function prepareImport({ db, dialect }: Executor): Promise<void> {
  if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(db);
}

/**
 * Inserts every row, table by table in foreign-key order, a few thousand rows per statement.
 * `analysed` holds the tables already analysed in this transaction (PostgreSQL, see below).
 */
export async function insertImportRows(executor: Executor, rows: ImportRows, analysed: Set<string>): Promise<void> {
  const { db, dialect } = executor;
  for (const table of Object.keys(rows) as (keyof ImportRows)[]) {
    const all = rows[table] as Record<string, unknown>[];
    for (let start = 0; start < all.length; start += ROWS_PER_STATEMENT) {
      const some = all.slice(start, start + ROWS_PER_STATEMENT);
      await (dialect === 'postgres' ? insertAsArrays(executor, table, some) : insertAsJson(executor, table, some));
    }
    // Without statistics (and sequential scans off), PostgreSQL checks a foreign key to `flags`
    // through the list index (namespace, created_at, key), reading the namespace's whole range for
    // each row, rather than through the primary key. One ANALYZE per table and import, after its first rows, is enough
    // (it runs inside the transaction and sees its rows).
    if (dialect === 'postgres' && all.length && !analysed.has(table)) {
      await sql`analyze ${sql.table(table)}`.execute(db);
      analysed.add(table);
    }
  }
}

const columnList = (columns: string[]) => sql.join(columns.map((column) => sql.ref(column)));

/** `insert into T (columns) select * from unnest($1::type[], ...)`: one array parameter per column. */
async function insertAsArrays(executor: Executor, table: keyof ImportRows, rows: Record<string, unknown>[]) {
  const types = await columnTypes(executor, table);
  const columns = Object.keys(rows[0]);
  const arrays = columns.map((column) => {
    const type = types.get(column);
    if (!type) throw new Error(`no column ${table}.${column}`);
    return sql`${rows.map((row) => row[column] ?? null)}::${sql.raw(type)}[]`;
  });
  await sql`insert into ${sql.table(table)} (${columnList(columns)}) select * from unnest(${sql.join(arrays)})`.execute(
    executor.db,
  );
}

/** `insert into T (columns) select value ->> 0, ... from json_each(?)`: the rows as one JSON array of arrays. */
async function insertAsJson({ db }: Executor, table: keyof ImportRows, rows: Record<string, unknown>[]) {
  const columns = Object.keys(rows[0]);
  const json = JSON.stringify(rows.map((row) => columns.map((column) => row[column] ?? null)));
  const values = sql.join(columns.map((_, index) => sql.raw(`value ->> ${index}`)));
  await sql`insert into ${sql.table(table)} (${columnList(columns)}) select ${values} from json_each(${json})`.execute(
    db,
  );
}

/** Each column's type (as PostgreSQL writes it, `character varying(255)`), read once per table and process. */
const typesOf = new Map<string, Promise<Map<string, string>>>();
function columnTypes({ db }: Executor, table: string): Promise<Map<string, string>> {
  let types = typesOf.get(table);
  if (!types) {
    types = sql<{ name: string; type: string }>`select attname as name, format_type(atttypid, atttypmod) as type
      from pg_attribute where attrelid = ${table}::regclass and attnum > 0 and not attisdropped`
      .execute(db)
      .then(({ rows }) => new Map(rows.map(({ name, type }) => [name, type])));
    typesOf.set(table, types);
    types.catch(() => typesOf.delete(table));
  }
  return types;
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
