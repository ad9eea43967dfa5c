import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config/index.js';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../support.js';
import { Api } from './api.js';

/** Two server instances on one PostgreSQL database learn of each other's writes through LISTEN/NOTIFY. */
describe.skipIf(!postgresUrl)('two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const config = defaultConfig();
    config.db.url = database.url;
    one = await buildApp(config);
    two = await buildApp(config);
    await Promise.all([one.ready(), two.ready()]);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  async function evaluatedWithin(api: Api, ms: number, expected: Record<string, unknown>): Promise<number> {
    const started = Date.now();
    for (;;) {
      const result = await api.ok('POST', '/evaluate/v1/variant', { flagKey: 'shared', entityId: 'e' });
      if (Object.entries(expected).every(([k, v]) => result[k] === v)) return Date.now() - started;
      if (Date.now() - started > ms) throw new Error(`not reflected within ${ms} ms: ${JSON.stringify(result)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a write through one is reflected in the other within a second', async () => {
    const first = new Api(one);
    const second = new Api(two);
    await first.flag('default', 'shared', 'VARIANT_FLAG_TYPE', false);
    await evaluatedWithin(second, 1000, { reason: 'FLAG_DISABLED_EVALUATION_REASON' });

    const variant = await first.variant('default', 'shared', 'on');
    await first.segment('default', 'all', []);
    await first.rule('default', 'shared', ['all'], [[variant.id, 100]], 1);
    await first.ok('PUT', '/api/v1/namespaces/default/flags/shared', { name: 'shared', enabled: true });
    await evaluatedWithin(second, 1000, { match: true, variantKey: 'on' });

    await second.ok('PUT', '/api/v1/namespaces/default/flags/shared', { name: 'shared', enabled: false });
    await evaluatedWithin(first, 1000, { reason: 'FLAG_DISABLED_EVALUATION_REASON' });

    const snapshot = (app: FastifyInstance) =>
      app.inject({ method: 'GET', url: '/internal/v1/evaluation/snapshot/namespace/default' });
    expect((await snapshot(one)).headers.etag).toBe((await snapshot(two)).headers.etag);
  });

  it("keeps answering from memory while it reloads the other's writes and its own, and answers its own write once it serves it", async () => {
    const first = new Api(one);
    const second = new Api(two);
    await first.flag('default', 'steady', 'BOOLEAN_FLAG_TYPE', true);
    await one.ensign.snapshots.get('default');
    // The cache subscribed first: when these listeners run, it has taken the change in.
    const answeredFromMemory: Record<string, boolean[]> = { own: [], elsewhere: [] };
    const stop = one.ensign.changes.subscribe((key, origin) => {
      if (key === 'default') answeredFromMemory[origin].push(!(one.ensign.snapshots.get(key) instanceof Promise));
    });
    try {
      for (let i = 0; i < 10; i++) await second.flag('default', `from-two-${i}`);
      await first.flag('default', 'from-one', 'BOOLEAN_FLAG_TYPE', true);
      const evaluatedAtOnce = await first.ok('POST', '/evaluate/v1/boolean', { flagKey: 'from-one', entityId: 'e' });
      expect(evaluatedAtOnce.flagKey).toBe('from-one');
      const seen = Date.now();
      while (answeredFromMemory.elsewhere.length < 10 && Date.now() - seen < 1000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(answeredFromMemory.elsewhere).toEqual(Array(10).fill(true));
      expect(answeredFromMemory.own).toEqual([true]);
    } finally {
      stop();
    }
  });

  it('names the flag another instance changed, and the other reads only that flag', async () => {
    await two.ensign.snapshots.get('default');
    const scopes: unknown[] = [];
    const stop = two.ensign.changes.subscribe((key, origin, scope) => {
      if (key === 'default' && origin === 'elsewhere') scopes.push(scope);
    });
    const parts = vi.spyOn(two.ensign.flipt, 'loadNamespaceParts');
    try {
      await new Api(one).flag('default', 'scoped', 'BOOLEAN_FLAG_TYPE', true);
      const seen = Date.now();
      const served = async () => (await two.ensign.snapshots.get('default')).compiled.flags.has('scoped');
      while (!(await served()) && Date.now() - seen < 1000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await served()).toBe(true);
      expect(scopes).toEqual([{ flags: ['scoped'], segments: [] }]);
      expect(parts).toHaveBeenCalledWith('default', expect.objectContaining({ placing: ['scoped'] }));
    } finally {
      stop();
      parts.mockRestore();
    }
  });

  it('after losing its LISTEN connection, an instance reconnects and catches up', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ensign_changes'",
    );
    await admin.end();
    expect(rowCount).toBe(2);
    await new Api(one).ok('PUT', '/api/v1/namespaces/default/flags/shared', { name: 'shared', enabled: true });
    await evaluatedWithin(new Api(two), 3000, { match: true, variantKey: 'on' });
  });
});
