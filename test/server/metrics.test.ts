import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { defaultConfig } from '../../server/config/index.js';
import { openDatabase } from '../../server/db/index.js';
import { Scrape } from '../support/prometheus.js';
import { createTestDatabase, dialects, startTestApp, type TestApp } from './support.js';
import { Api } from './evaluation/api.js';
import { CLIENT } from './surveys/support.js';

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

const evaluate = (base: string, path: string, body: object) =>
  fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) });

describe.each(dialects)('GET /metrics on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(dialect, (config) => {
      config.analytics.flushIntervalMs = 50;
    });
    const api = new Api(t.app);
    await api.flag('default', 'colour');
    const blue = await api.variant('default', 'colour', 'blue');
    await api.segment('default', 'everyone', [['STRING_COMPARISON_TYPE', 'plan', 'neq', 'none']]);
    await api.rule('default', 'colour', ['everyone'], [[blue.id, 100]], 1);
    await api.flag('default', 'switch', 'BOOLEAN_FLAG_TYPE', true);
    base = await listen(t);
  });
  afterAll(() => t.close());

  it("counts evaluations under Flipt's names, the hot path and Fastify's routes alike", async () => {
    const before = await Scrape.of(`${base}/metrics`);
    const flag = { flag: 'colour', namespace: 'default' };
    const body = { flagKey: 'colour', entityId: 'e1', context: { plan: 'pro' } };
    expect((await evaluate(base, '/evaluate/v1/variant', body)).status).toBe(200);
    // ?pretty takes Fastify's route, not the hot path.
    expect((await evaluate(base, '/evaluate/v1/variant?pretty', body)).status).toBe(200);
    expect((await evaluate(base, '/evaluate/v1/boolean', { flagKey: 'switch', entityId: 'e1' })).status).toBe(200);
    expect((await evaluate(base, '/evaluate/v1/variant', { flagKey: 'missing', entityId: 'e1' })).status).toBe(404);
    expect(
      (
        await evaluate(base, '/evaluate/v1/batch', {
          requests: [{ flagKey: 'colour', entityId: 'e2', context: { plan: 'pro' } }],
        })
      ).status,
    ).toBe(200);

    const after = await Scrape.of(`${base}/metrics`);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      after.value(name, labels) - before.value(name, labels);
    expect(delta('flipt_evaluations_requests_total', flag)).toBe(3);
    expect(
      delta('flipt_evaluations_results_total', {
        ...flag,
        match: 'true',
        reason: 'MATCH_EVALUATION_REASON',
        value: 'blue',
        type: 'variant',
      }),
    ).toBe(3);
    expect(delta('flipt_evaluations_results_total', { flag: 'switch', type: 'boolean', value: 'true' })).toBe(1);
    expect(delta('flipt_evaluations_errors_total', { flag: '(unknown)', namespace: 'default' })).toBe(1);
    expect(delta('flipt_evaluations_latency_milliseconds', flag)).toBe(3);
    expect(after.family('flipt_evaluations_latency_milliseconds')?.type).toBe('HISTOGRAM');

    const http = (route: string, status: string) =>
      delta('ensign_http_request_duration_seconds', { method: 'POST', route, status_code: status });
    expect(http('/evaluate/v1/variant', '200')).toBe(2);
    expect(http('/evaluate/v1/variant', '404')).toBe(1);
    expect(http('/evaluate/v1/batch', '200')).toBe(1);
    expect(delta('ensign_snapshot_cache_total', { result: 'hit' })).toBeGreaterThanOrEqual(4);
  });

  it('counts evaluations of flags the data does not hold under one label value: random keys add no series', async () => {
    const seriesOf = (scrape: Scrape, name: string) => scrape.family(name)?.metrics.length ?? 0;
    const names = ['flipt_evaluations_requests_total', 'flipt_evaluations_errors_total'];
    // Both series of an unknown flag, in a namespace that holds flags and in one that does not exist.
    expect((await evaluate(base, '/evaluate/v1/boolean', { flagKey: 'nope', entityId: 'e' })).status).toBe(404);
    const nowhere = { namespaceKey: 'nowhere', flagKey: 'nope', entityId: 'e' };
    expect((await evaluate(base, '/evaluate/v1/boolean', nowhere)).status).toBe(404);
    const before = await Scrape.of(`${base}/metrics`);

    const random = () => Math.random().toString(36).slice(2);
    // Ten batches of the most a batch may hold: 1,000 items, in at most 10 namespaces (the default and 8 unknown).
    for (let batch = 0; batch < 10; batch++) {
      const requests = Array.from({ length: 1_000 }, (_, i) => ({
        ...(i % 125 === 0 ? { namespaceKey: `ns-${random()}` } : {}),
        flagKey: `flag-${random()}`,
        entityId: 'e',
      }));
      expect((await evaluate(base, '/evaluate/v1/batch', { requests })).status).toBe(200);
    }
    // A flag the namespace holds keeps its own label, even when its evaluation fails (wrong type).
    expect((await evaluate(base, '/evaluate/v1/boolean', { flagKey: 'colour', entityId: 'e' })).status).toBe(400);

    const after = await Scrape.of(`${base}/metrics`);
    for (const name of names) expect(seriesOf(after, name) - seriesOf(before, name)).toBeLessThanOrEqual(1);
    const errors = (labels: Record<string, string>) =>
      after.value('flipt_evaluations_errors_total', labels) - before.value('flipt_evaluations_errors_total', labels);
    expect(errors({ namespace: 'default', flag: '(unknown)' })).toBe(9_920);
    expect(errors({ namespace: '(unknown)', flag: '(unknown)' })).toBe(80);
    expect(errors({ namespace: 'default', flag: 'colour' })).toBe(1);
  });

  it('reports process metrics, server errors and analytics flushes', async () => {
    const scrape = await Scrape.of(`${base}/metrics`);
    expect(scrape.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(scrape.family('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
    expect(scrape.family('flipt_server_errors_total')?.type).toBe('COUNTER');
    await expect
      .poll(async () => (await Scrape.of(`${base}/metrics`)).value('ensign_analytics_flushes_total', { result: 'ok' }))
      .toBeGreaterThan(0);
  });

  it('counts survey displays and responses', async () => {
    const before = await Scrape.of(`${base}/metrics`);
    const sync = await (await fetch(`${base}${CLIENT}/in-app/sync`)).json();
    const surveyId = sync.data.surveys[0].id;
    const post = (path: string, body: object) =>
      fetch(`${base}${CLIENT}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('displays', { surveyId })).status).toBe(200);
    expect((await post('responses', { surveyId, finished: false, data: {} })).status).toBe(200);
    const after = await Scrape.of(`${base}/metrics`);
    expect(after.value('ensign_survey_displays_total') - before.value('ensign_survey_displays_total')).toBe(1);
    expect(after.value('ensign_survey_responses_total') - before.value('ensign_survey_responses_total')).toBe(1);
  });
});

describe('metrics.enabled: false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', (config) => {
      config.metrics.enabled = false;
    });
  });
  afterAll(() => t.close());

  it('serves no /metrics', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});

describe.each(dialects)('GET /health on %s', (dialect) => {
  it('answers SERVING while the database answers, NOT_SERVING (503) once it does not', async () => {
    const testDatabase = await createTestDatabase(dialect);
    const config = defaultConfig();
    config.db.url = testDatabase.url;
    const database = await openDatabase(config.db.url);
    const app = await buildApp(config, { database });
    try {
      const healthy = await app.inject({ method: 'GET', url: '/health' });
      expect(healthy.statusCode).toBe(200);
      expect(healthy.json()).toEqual({ status: 'SERVING' });
      await database.close();
      const unhealthy = await app.inject({ method: 'GET', url: '/health' });
      expect(unhealthy.statusCode).toBe(503);
      expect(unhealthy.json()).toEqual({ status: 'NOT_SERVING' });
    } finally {
      await app.close();
      await testDatabase.drop();
    }
  });
});
