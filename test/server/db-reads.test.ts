import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce, readAside } from '../../server/db/executor.js';
import { type Database, openDatabase } from '../../server/db/index.js';
import { createTestDatabase, dialects, type TestDatabase } from './support.js';

// The storage layer's two ways of running a read other than a query built each time: aside (on
// SQLite, a worker thread) and compiled once.

const namespace = (key: string, name = key) => ({
  key,
  name,
  description: '',
  protected: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe.each(dialects)('reads on %s', (dialect) => {
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

  describe('aside', () => {
    const keys = sql<{
      key: string;
      n: number;
    }>`select key, 7 as n from namespaces where key like ${'aside-%'} order by key`;

    it('answers as the same query does on the event loop, and sees what was committed before it', async () => {
      await database.db.insertInto('namespaces').values(namespace('aside-a')).execute();
      const query = keys.compile(database.db);
      expect(await readAside(database, query)).toEqual([{ key: 'aside-a', n: 7 }]);
      await database.transaction((trx) => trx.insertInto('namespaces').values(namespace('aside-b')).execute());
      const aside = await readAside(database, query);
      expect(aside).toEqual((await keys.execute(database.db)).rows);
      expect(aside.map((row) => row.key)).toEqual(['aside-a', 'aside-b']);
    });

    it('answers many reads at once, each with its own rows', async () => {
      const reads = Array.from({ length: 20 }, (_, i) =>
        readAside(database, sql<{ i: number }>`select ${i} + 0 as i`.compile(database.db)),
      );
      expect((await Promise.all(reads)).map((rows) => rows[0].i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it('fails a bad query with the database error, and goes on reading', async () => {
      await expect(readAside(database, sql`select * from no_such_table`.compile(database.db))).rejects.toThrow(
        /no_such_table/,
      );
      expect(await readAside(database, keys.compile(database.db))).toHaveLength(2);
    });

    it.runIf(dialect === 'sqlite')('leaves the event loop free while the query runs', async () => {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      try {
        const count = sql<{
          n: number;
        }>`with recursive s(i) as (select 1 union all select i + 1 from s where i < 3000000) select count(*) as n from s`;
        const [{ n }] = await readAside(database, count.compile(database.db));
        expect(n).toBe(3_000_000);
        // On the event loop, the timer could not have run until the query had ended.
        expect(ticks).toBeGreaterThanOrEqual(3);
      } finally {
        clearInterval(timer);
      }
    });

    it.runIf(dialect === 'sqlite')('refuses to write', async () => {
      await expect(
        readAside(database, sql`delete from namespaces where key = ${'aside-a'}`.compile(database.db)),
      ).rejects.toThrow(/readonly|read-only|query_only/i);
      expect(await readAside(database, keys.compile(database.db))).toHaveLength(2);
    });
  });

  describe('compiled once', () => {
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

    it('sees what was committed just before it; inside a transaction, what the transaction wrote', async () => {
      const nameOf = compiledOnce((db, key: string) =>
        db.selectFrom('namespaces').select('name').where('key', '=', key),
      );
      await database.db.insertInto('namespaces').values(namespace('once-new', 'New')).execute();
      expect(await nameOf(database, 'once-new')).toEqual([{ name: 'New' }]);
      await database.transaction(async (trx) => {
        await trx.updateTable('namespaces').set({ name: 'Renamed' }).where('key', '=', 'once-new').execute();
        expect(await nameOf({ db: trx, dialect: database.dialect }, 'once-new')).toEqual([{ name: 'Renamed' }]);
        expect(await nameOf(database, 'once-new')).toEqual([{ name: 'New' }]);
      });
      expect(await nameOf(database, 'once-new')).toEqual([{ name: 'Renamed' }]);
    });

    it('with oneRow, gives the one row or none, and the next read sees what was committed since', async () => {
      const build = (db: Parameters<Parameters<typeof compiledOnce>[0]>[0], key: string) =>
        db.selectFrom('namespaces').select('name').where('key', '=', key);
      const namesOf = compiledOnce(build);
      const nameOf = compiledOnce(build, { oneRow: true });
      await database.db.insertInto('namespaces').values(namespace('one-row', 'First')).execute();
      // The same SQL read for all its rows first, then for one row with other arguments.
      expect(await namesOf(database, 'one-row')).toEqual([{ name: 'First' }]);
      expect(await nameOf(database, 'no-such-row')).toEqual([]);
      expect(await nameOf(database, 'one-row')).toEqual([{ name: 'First' }]);
      await database.db.updateTable('namespaces').set({ name: 'Second' }).where('key', '=', 'one-row').execute();
      expect(await nameOf(database, 'one-row')).toEqual([{ name: 'Second' }]);
      expect(await namesOf(database, 'no-such-row')).toEqual([]);
      expect(await nameOf(database, 'one-row')).toEqual([{ name: 'Second' }]);
    });

    it('is told to the query log, as the queries Kysely runs are (tracing records them)', async () => {
      const logged: string[] = [];
      const traced = await openDatabase(created.url, {
        migrate: false,
        onQuery: (event) => logged.push(event.query.sql),
      });
      try {
        const keyOf = compiledOnce((db, name: string) =>
          db.selectFrom('namespaces').select('key').where('name', '=', name),
        );
        expect(await keyOf(traced, 'Beta')).toEqual([{ key: 'once-b' }]);
        expect(logged.filter((query) => query.includes('"name" ='))).toHaveLength(1);
      } finally {
        await traced.close();
      }
    });

    it.runIf(dialect === 'sqlite')('never writes outside a transaction', async () => {
      const remove = compiledOnce((db, key: string) => db.deleteFrom('namespaces').where('key', '=', key));
      await expect(remove(database, 'once-b')).rejects.toThrow(/readonly|read-only|query_only/i);
      expect(
        await database.db.selectFrom('namespaces').select('key').where('key', '=', 'once-b').execute(),
      ).toHaveLength(1);
    });

    it('refuses a query that does not take an argument as a value', async () => {
      const careless = compiledOnce((db, _unused: string) => db.selectFrom('namespaces').select('key'));
      await expect(careless(database, 'x')).rejects.toThrow(/not a value of the query/);
    });
  });
});
