import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../server/db/index.js';

describe('migrate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-migrate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tables = async (database: Awaited<ReturnType<typeof openDatabase>>) =>
    (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(database.db)).rows.map(
      (row) => row.name,
    );

  it('applies every migration to a fresh database, and leaves an up-to-date one at a read of what was applied', async () => {
    const url = `file:${join(dir, 'x.db')}`;
    const fresh = await openDatabase(url, { migrate: false });
    try {
      const applied = await migrate(fresh);
      expect(applied.length).toBeGreaterThan(0);
      expect(await tables(fresh)).toContain(DEFAULT_MIGRATION_TABLE);
      // The Migrator takes its lock (creating its table) at every run; the read before it needs none.
      await sql`drop table ${sql.table(DEFAULT_MIGRATION_LOCK_TABLE)}`.execute(fresh.db);
      expect(await migrate(fresh)).toEqual([]);
      expect(await tables(fresh)).not.toContain(DEFAULT_MIGRATION_LOCK_TABLE);
    } finally {
      await fresh.close();
    }
  });

  it('runs the migrations a database lacks when others are applied', async () => {
    const url = `file:${join(dir, 'partial.db')}`;
    const database = await openDatabase(url, { migrate: false });
    try {
      const applied = await migrate(database);
      const last = applied.at(-1)!;
      await sql`delete from ${sql.table(DEFAULT_MIGRATION_TABLE)} where name = ${last}`.execute(database.db);
      // The last migration's tables exist already, so running it again fails, naming it.
      await expect(migrate(database)).rejects.toThrow(last);
    } finally {
      await database.close();
    }
  });
});
