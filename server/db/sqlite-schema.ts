import type { Client, InStatement, InValue } from '@libsql/client/sqlite3';
import { DEFAULT_MIGRATION_TABLE } from 'kysely';
import { timestampNow } from './migrations/columns.js';
import built from './sqlite-schema.json' with { type: 'json' };

/**
 * What the migrations make of an empty SQLite database: their names, the schema's statements in order,
 * and the rows they insert. test/server/sqlite-schema.test.ts checks it against the migrations (and
 * writes it anew, when told to, after a migration is added).
 */
export interface SqliteSchema {
  migrations: string[];
  statements: string[];
  /** Rows the migrations insert; their timestamp columns are given the time of creation. */
  rows: { table: string; values: Record<string, unknown> }[];
}

/** Columns set to the time the database is created rather than the time the schema was written. */
export const TIMESTAMP_COLUMNS = ['created_at', 'updated_at'];

/**
 * Creates a fresh database's tables from the schema in one write transaction of prepared statements,
 * recording its migrations as applied; returns their names. Running the migrations one statement at a
 * time through Kysely was a fifth of a cold start on a fresh database (bench/startup).
 */
export async function createFromSchema(client: Client, schema: SqliteSchema = built): Promise<string[]> {
  const now = timestampNow();
  const inserts = schema.rows.map(({ table, values }): InStatement => {
    const columns = Object.keys(values);
    return {
      sql: `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      args: columns.map((column) => (TIMESTAMP_COLUMNS.includes(column) ? now : (values[column] as InValue))),
    };
  });
  const applied = schema.migrations.map(
    (name): InStatement => ({
      sql: `insert into "${DEFAULT_MIGRATION_TABLE}" ("name", "timestamp") values (?, ?)`,
      args: [name, new Date().toISOString()],
    }),
  );
  await client.batch([...schema.statements, ...inserts, ...applied], 'write');
  return schema.migrations;
}
