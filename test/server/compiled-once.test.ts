import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../server/db/executor.js';
import { type Database, openDatabase } from '../../server/db/index.js';
import { createTestDatabase, dialects, type TestDatabase } from './support.js';

const namespace = (key: string, name: string) => ({
  key,
  name,
  description: '',
  protected: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe.each(dialects)('a query compiled once on %s', (dialect) => {
  let created: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    created = await createTestDatabase(dialect);
    database = await openDatabase(created.url);
    await database.db
      .insertInto('namespaces')
      .values([namespace('once-a', 'Alpha'), namespace('once-b', 'Beta'), namespace('once-c', 'Alpha')])
      .execute();
  });
  afterAll(async () => {
    await database.close();
    await created.drop();
  });

  it('is built once and answers each call with its own arguments, one used twice included', async () => {
    let builds = 0;
    const named = compiledOnce((db, name: string, except: string) => {
      builds++;
      return db
        .selectFrom('namespaces')
        .select('key')
        .where('name', '=', name)
        .where('key', '!=', except)
        .where((eb) => eb.or([eb('key', 'like', 'once-%'), eb('name', '=', name)]))
        .orderBy('key');
    });
    expect(await named(database, 'Alpha', 'none')).toEqual([{ key: 'once-a' }, { key: 'once-c' }]);
    expect(await named(database, 'Alpha', 'once-a')).toEqual([{ key: 'once-c' }]);
    expect(await named(database, 'Beta', 'none')).toEqual([{ key: 'once-b' }]);
    // Inside a transaction too, with the same compiled query.
    await database.transaction(async (trx) => {
      expect(await named({ db: trx, dialect: database.dialect }, 'Beta', 'once-b')).toEqual([]);
    });
    expect(builds).toBe(1);
  });

  it('refuses a query that does not take an argument as a value', async () => {
    const careless = compiledOnce((db, _unused: string) => db.selectFrom('namespaces').select('key'));
    await expect(careless(database, 'x')).rejects.toThrow(/not a value of the query/);
  });
});
