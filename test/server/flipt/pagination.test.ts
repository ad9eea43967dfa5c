import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyFlagKey, manySegmentKey, seedMany } from '../../support/many-flags.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { client, error, type Call } from './client.js';

const FLAGS = 3000;
const SEGMENTS = 1200;
const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const keysOf = (items: { key: string }[]) => items.map((item) => item.key);

describe.each(dialects)('Flipt list pagination over thousands of rows on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedMany(t.database.url, { namespaceKey: 'big', flags: FLAGS, segments: SEGMENTS });
    call = client(t.app);
  }, 60_000);
  afterAll(() => t.close());

  /** Follows nextPageToken from the first page to the last; every page's token and count checked. */
  async function walk(path: string, field: 'flags' | 'segments', limit: number, total: number) {
    const keys: string[] = [];
    let pageToken = '';
    do {
      const page = await call(
        'GET',
        `${path}?limit=${limit}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.totalCount).toBe(total);
      keys.push(...keysOf(page.body[field]));
      pageToken = page.body.nextPageToken;
      if (pageToken) {
        expect(JSON.parse(Buffer.from(pageToken, 'base64').toString())).toEqual({
          key: expect.any(String),
          offset: keys.length,
        });
      }
    } while (pageToken);
    return keys;
  }

  it('pages flags by creation time then key, token after token, as the whole list orders them', async () => {
    const expected = Array.from({ length: FLAGS }, (_, i) => manyFlagKey(i));
    const all = await call('GET', '/api/v1/namespaces/big/flags');
    expect(keysOf(all.body.flags)).toEqual(expected);
    expect(all.body).toMatchObject({ nextPageToken: '', totalCount: FLAGS });
    expect(await walk('/api/v1/namespaces/big/flags', 'flags', 250, FLAGS)).toEqual(expected);
    // Variant flags come with their variants on every page.
    const page = await call(
      'GET',
      `/api/v1/namespaces/big/flags?limit=3&pageToken=${token({ key: manyFlagKey(1001), offset: 1001 })}`,
    );
    expect(keysOf(page.body.flags)).toEqual([manyFlagKey(1001), manyFlagKey(1002), manyFlagKey(1003)]);
    expect(page.body.flags.map((flag: { variants: unknown[] }) => flag.variants.length)).toEqual([2, 0, 2]);
  });

  it('pages segments the same way', async () => {
    const expected = Array.from({ length: SEGMENTS }, (_, i) => manySegmentKey(i));
    expect(await walk('/api/v1/namespaces/big/segments', 'segments', 500, SEGMENTS)).toEqual(expected);
  });

  it('continues from the row the token names, even after earlier rows were deleted', async () => {
    const first = await call('GET', '/api/v1/namespaces/big/segments?limit=100');
    const next = first.body.nextPageToken;
    expect(JSON.parse(Buffer.from(next, 'base64').toString())).toEqual({ key: manySegmentKey(100), offset: 100 });
    await call('DELETE', `/api/v1/namespaces/big/segments/${manySegmentKey(3)}`);
    await call('DELETE', `/api/v1/namespaces/big/segments/${manySegmentKey(50)}`);
    const second = await call('GET', `/api/v1/namespaces/big/segments?limit=2&pageToken=${encodeURIComponent(next)}`);
    expect(keysOf(second.body.segments)).toEqual([manySegmentKey(100), manySegmentKey(101)]);
    expect(second.body.totalCount).toBe(SEGMENTS - 2);
    // A token whose row is gone falls back on its offset, as Flipt reads tokens (rows 3 and 50 are gone).
    const gone = await call(
      'GET',
      `/api/v1/namespaces/big/segments?limit=2&pageToken=${token({ key: manySegmentKey(3), offset: 10 })}`,
    );
    expect(keysOf(gone.body.segments)).toEqual([manySegmentKey(11), manySegmentKey(12)]);
  });

  it('refuses a token that is not one of its own with a 400 naming it', async () => {
    const bad = [
      'not a token!',
      token({ key: 'x' }),
      token({ key: 'x', offset: -1 }),
      token({ key: 7, offset: 1 }),
      'e30',
    ];
    for (const pageToken of bad) {
      for (const list of ['flags', 'segments']) {
        expect(
          await call('GET', `/api/v1/namespaces/big/${list}?limit=5&pageToken=${encodeURIComponent(pageToken)}`),
        ).toMatchObject({
          status: 400,
          body: error(3, `pageToken is not valid: "${pageToken}"`),
        });
      }
    }
    expect(await call('GET', `/api/v1/namespaces/big/flags?pageToken=${token({ key: 'x', offset: 1 })}`)).toMatchObject(
      {
        status: 400,
        body: error(3, 'limit must be set when offset or pageToken is set'),
      },
    );
  });

  it('reads the page after a token from the list index', async () => {
    if (dialect !== 'sqlite') return;
    const { openDatabase } = await import('../../../server/db/index.js');
    const { sql } = await import('kysely');
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      const plan = await sql<{
        detail: string;
      }>`explain query plan select * from flags where namespace_key = ${'big'} and (created_at, key) >= (${'x'}, ${'y'}) order by created_at, key limit 11`.execute(
        database.db,
      );
      expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(
        /USING INDEX flags_list_idx \(namespace_key=\? AND \(created_at,key\)>\(\?,\?\)\)|USING INDEX flags_list_idx \(namespace_key=\? AND \(created_at,key\)>=\(\?,\?\)\)/,
      );
    } finally {
      await database.close();
    }
  });
});
