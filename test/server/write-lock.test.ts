import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '@libsql/client';
import { startTestApp, type TestApp } from './support.js';
import { WRITE_WAIT_MS } from '../../server/db/sqlite-writes.js';

// Writes wait for SQLite's write lock when another connection (another process) holds it, without
// blocking the event loop; a write that cannot start in time is answered 503, never 500.
describe('writes while another connection holds the SQLite write lock', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const create = (app: TestApp, key: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/v1/namespaces/default/flags',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ key, name: key, type: 'BOOLEAN_FLAG_TYPE' }),
    });

  it('wait for a lock held briefly, then succeed, and leave no connection broken', async () => {
    t = await startTestApp('sqlite');
    const app = t;
    const other = createClient({ url: app.config.db.url });
    const lock = await other.transaction('write');
    await lock.execute(
      "insert into namespaces (key, name, description, protected, created_at, updated_at) values ('held', 'held', '', 0, '2024-01-01T00:00:00.000000Z', '2024-01-01T00:00:00.000000Z')",
    );
    const waiting = Array.from({ length: 6 }, (_, i) => create(app, `during_${i}`));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await lock.commit();
    other.close();
    const during = await Promise.all(waiting);
    expect(during.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    const after = await Promise.all(Array.from({ length: 6 }, (_, i) => create(app, `after_${i}`)));
    expect(after.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
  });

  it(`answer 503 with Retry-After when the lock is held past ${WRITE_WAIT_MS / 1000} s, and write again once it is released`, async () => {
    t = await startTestApp('sqlite');
    const app = t;
    const other = createClient({ url: app.config.db.url });
    const lock = await other.transaction('write');
    await lock.execute("update namespaces set description = description where key = 'default'");
    const refused = await create(app, 'refused');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 14 });
    // Evaluations are answered meanwhile: the wait never blocks the event loop.
    const evaluation = await app.app.inject({
      method: 'POST',
      url: '/evaluate/v1/boolean',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ flagKey: 'missing', entityId: 'e' }),
    });
    expect(evaluation.statusCode).toBe(404);
    await lock.commit();
    other.close();
    expect((await create(app, 'after')).statusCode).toBe(200);
    expect((await create(app, 'refused')).statusCode).toBe(200);
  }, 30_000);
});
