import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config/index.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';
import { Api } from './api.js';

const minute = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe.each(dialects)('analytics on %s', (dialect) => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  async function start() {
    const config = defaultConfig();
    config.db.url = database.url;
    config.analytics.flushIntervalMs = 60_000;
    const app = await buildApp(config);
    await app.ready();
    return app;
  }

  it('counts every evaluation, across a flush and a restart', async () => {
    database = await createTestDatabase(dialect);
    const from = minute(Date.now() - 30 * 60_000);
    let app = await start();
    const api = new Api(app);
    await api.flag('default', 'counted');
    await api.flag('default', 'other', 'BOOLEAN_FLAG_TYPE');
    for (let i = 0; i < 7; i++)
      await api.ok('POST', '/evaluate/v1/variant', { flagKey: 'counted', entityId: String(i) });
    await api.ok('POST', '/evaluate/v1/batch', {
      requests: [
        { flagKey: 'counted', entityId: 'x' },
        { flagKey: 'other', entityId: 'x' },
        { flagKey: 'missing', entityId: 'x' },
      ],
    });
    await api.ok('POST', '/api/v1/evaluate', { flagKey: 'counted', entityId: 'x' });
    expect((await api.call('POST', '/evaluate/v1/variant', { flagKey: 'missing', entityId: 'x' })).status).toBe(404);

    const series = async () => {
      const to = minute(Date.now() + 60_000);
      const result = await api.ok(
        'GET',
        `/internal/v1/analytics/namespaces/default/flags/counted?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      );
      expect(result.timestamps.length).toBe(result.values.length);
      expect(result.timestamps.length).toBeGreaterThanOrEqual(31);
      expect(result.timestamps[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
      return result.values.reduce((sum: number, v: number) => sum + v, 0);
    };
    // Unflushed counts are served from memory; closing the app flushes them.
    expect(await series()).toBe(9);
    await app.close();

    app = await start();
    const restarted = new Api(app);
    const to = minute(Date.now() + 60_000);
    const after = await restarted.ok(
      'GET',
      `/internal/v1/analytics/namespaces/default/flags/counted?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(after.values.reduce((sum: number, v: number) => sum + v, 0)).toBe(9);
    await restarted.ok('POST', '/evaluate/v1/variant', { flagKey: 'counted', entityId: 'y' });
    const more = await restarted.ok(
      'GET',
      `/internal/v1/analytics/namespaces/default/flags/counted?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(more.values.reduce((sum: number, v: number) => sum + v, 0)).toBe(10);
    const other = await restarted.ok(
      'GET',
      `/internal/v1/analytics/namespaces/default/flags/other?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(other.values.reduce((sum: number, v: number) => sum + v, 0)).toBe(1);
    await app.close();
  });

  it('uses 15-minute buckets beyond 4 hours and rejects bad times', async () => {
    database ??= await createTestDatabase(dialect);
    const app = await start();
    const api = new Api(app);
    const result = await api.ok(
      'GET',
      '/internal/v1/analytics/namespaces/default/flags/f?from=2024-01-01%2000:00:00&to=2024-01-01%2005:00:00',
    );
    expect(result.timestamps).toHaveLength(20);
    expect(result.timestamps[1]).toBe('2024-01-01T00:15:00Z');
    expect(result.values.every((v: number) => v === 0)).toBe(true);
    const hour = await api.ok(
      'GET',
      '/internal/v1/analytics/namespaces/default/flags/f?from=2024-01-01%2000:00:00&to=2024-01-01%2001:00:00',
    );
    expect(hour.timestamps).toHaveLength(60);
    expect(
      (
        await api.call(
          'GET',
          '/internal/v1/analytics/namespaces/default/flags/f?from=yesterday&to=2024-01-01%2001:00:00',
        )
      ).status,
    ).toBe(500);
    await app.close();
  });

  it('refuses a range longer than 31 days, or one that ends before it starts, before counting anything', async () => {
    database ??= await createTestDatabase(dialect);
    const app = await start();
    const api = new Api(app);
    const series = (from: string, to: string) =>
      api.call(
        'GET',
        `/internal/v1/analytics/namespaces/default/flags/f?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      );
    const huge = await series('0001-01-01 00:00:00', '9999-12-31 00:00:00');
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({ code: 3, message: 'the range from "from" to "to" must be at most 31 days' });
    expect((await series('2024-01-02 00:00:00', '2024-01-01 00:00:00')).status).toBe(400);
    const month = await api.ok(
      'GET',
      '/internal/v1/analytics/namespaces/default/flags/f?from=2024-01-01%2000:00:00&to=2024-02-01%2000:00:00',
    );
    expect(month.values).toHaveLength(31 * 24 * 4);
    await app.close();
  });
});
