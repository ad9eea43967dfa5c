import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/index.js';

describe('SQLite connection settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes run in WAL mode with synchronous NORMAL (1), in transactions and single statements alike', async () => {
    const database = await openDatabase(`file:${join(dir, 'settings.db')}`);
    try {
      const pragma = async (name: string, on = database.db) =>
        Object.values((await sql.raw(`PRAGMA ${name}`).execute(on)).rows[0] as object)[0];
      await database.transaction(async (trx) => {
        expect(await pragma('synchronous', trx)).toBe(1);
        expect(await pragma('journal_mode', trx)).toBe('wal');
      });
      await database.db
        .insertInto('namespaces')
        .values({
          key: 'settings',
          name: 'Settings',
          description: '',
          protected: false,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        } as never)
        .execute();
      await database.transaction(async (trx) => expect(await pragma('synchronous', trx)).toBe(1));
    } finally {
      await database.close();
    }
  });
});
