import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIGRATION_TABLE, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, migrate, openDatabase } from '../../server/db/index.js';
import { type SqliteSchema, TIMESTAMP_COLUMNS } from '../../server/db/sqlite-schema.js';
import built from '../../server/db/sqlite-schema.json' with { type: 'json' };

const SCHEMA_FILE = join(import.meta.dirname, '../../server/db/sqlite-schema.json');

/** A database's schema, the rows in its tables (timestamps left out) and its applied migrations. */
async function schemaOf({ db }: Database): Promise<SqliteSchema> {
  const objects = await sql<{ type: string; name: string; sql: string }>`
    select type, name, sql from sqlite_master where sql is not null and name not like 'sqlite_%'
    order by type = 'table' desc, rowid`.execute(db);
  const rows: SqliteSchema['rows'] = [];
  for (const { name } of objects.rows.filter((object) => object.type === 'table')) {
    if (name === DEFAULT_MIGRATION_TABLE) continue;
    const { rows: found } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    for (const values of found) {
      for (const column of TIMESTAMP_COLUMNS) if (column in values) values[column] = null;
      rows.push({ table: name, values });
    }
  }
  const applied = await sql<{
    name: string;
  }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
  return {
    migrations: applied.rows.map((row) => row.name),
    statements: objects.rows.map((object) => object.sql),
    rows,
  };
}

describe('the SQLite schema a fresh database is created from', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-sqlite-schema-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let migrated: SqliteSchema;

  it('is what the migrations make of an empty database (UPDATE_SQLITE_SCHEMA=1 writes it anew)', async () => {
    const database = await openDatabase(`file:${join(dir, 'migrated.db')}`, { migrate: false });
    try {
      await migrate(database, { fromSchema: false });
      migrated = await schemaOf(database);
    } finally {
      await database.close();
    }
    if (process.env.UPDATE_SQLITE_SCHEMA) writeFileSync(SCHEMA_FILE, `${JSON.stringify(migrated, null, 2)}\n`);
    else
      expect(
        built,
        'server/db/sqlite-schema.json is behind the migrations: run UPDATE_SQLITE_SCHEMA=1 npx vitest run test/server/sqlite-schema.test.ts',
      ).toEqual(migrated);
  });

  it('gives a database equal to one migrated step by step, then up to date', async () => {
    const database = await openDatabase(`file:${join(dir, 'fresh.db')}`, { migrate: false });
    try {
      expect(await migrate(database)).toEqual(migrated.migrations);
      expect(await schemaOf(database)).toEqual(migrated);
      expect(await migrate(database)).toEqual([]);
      const defaultNamespace = await database.db
        .selectFrom('namespaces')
        .select(['created_at', 'updated_at'])
        .where('key', '=', 'default')
        .executeTakeFirstOrThrow();
      expect(defaultNamespace.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(defaultNamespace.updated_at).toBe(defaultNamespace.created_at);
      const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(database.db);
      expect(rows).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      await database.close();
    }
  });
});
