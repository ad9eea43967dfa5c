import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteOptions } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { ConfigError, defaultConfig, parseConfigFile, loadConfig } from '../../../server/config/index.js';
import { limitedKindOf } from '../../../server/rate-limits.js';
import { createTestDatabase, startTestApp, type TestApp } from '../support.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ENV = 'clensigndemoenvironment0';
const SURVEY = 'clensigndemosurveyallqts';
const GITHUB = {
  required: true,
  session: { domain: 'localhost' },
  methods: {
    token: { enabled: true, bootstrap: { token: 'bootstrap-token-for-rate-limit-tests' } },
    github: {
      enabled: true,
      client_id: 'client',
      client_secret: 'secret',
      redirect_address: 'http://localhost:8080',
    },
  },
};

describe('rate limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('limit login, token creation and survey writes per client address, answer 429 and recover', async () => {
    t = await startTestApp('sqlite', (config) => {
      config.authentication = GITHUB;
      config.surveys.demo = true;
      config.rateLimits = { ...config.rateLimits, windowMs: 1000, login: 3, tokenCreation: 2, surveyWrites: 4 };
    });
    const app = t.app;
    const login = (remoteAddress = '192.0.2.1') =>
      app.inject({ method: 'GET', url: '/auth/v1/method/github/authorize', remoteAddress });
    for (let i = 0; i < 3; i++) expect((await login()).statusCode).toBe(200);
    const refused = await login();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 8,
      message: expect.stringMatching(/^too many requests from this address: at most 3 per 1 s, retry in /),
      details: [],
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count; the first recovers once its window has passed.
    expect((await login('192.0.2.2')).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await login()).statusCode).toBe(200), { timeout: 5000, interval: 100 });

    const createToken = () =>
      app.inject({
        method: 'POST',
        url: '/auth/v1/method/token',
        remoteAddress: '192.0.2.3',
        headers: { authorization: `Bearer ${GITHUB.methods.token.bootstrap.token}` },
        payload: { name: 'ci', description: 'rate limited' },
      });
    expect((await createToken()).statusCode).toBe(200);
    expect((await createToken()).statusCode).toBe(200);
    expect((await createToken()).statusCode).toBe(429);

    const display = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/client/${ENV}/displays`,
        remoteAddress: '192.0.2.4',
        payload: { surveyId: SURVEY },
      });
    for (let i = 0; i < 4; i++) expect((await display()).statusCode).toBe(200);
    const tooMany = await display();
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json()).toMatchObject({ code: 'too_many_requests' });
    expect(tooMany.headers['access-control-allow-origin']).toBe('*');
  });

  it('leave evaluations alone by default, and limit them when asked (the fast path steps aside)', async () => {
    t = await startTestApp('sqlite');
    const evaluate = (base: string) =>
      fetch(`${base}/evaluate/v1/boolean`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ namespaceKey: 'default', flagKey: 'absent', entityId: 'e' }),
      });
    let base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const statuses = await Promise.all(Array.from({ length: 200 }, async () => (await evaluate(base)).status));
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    await t.close();

    t = await startTestApp('sqlite', (config) => {
      config.rateLimits = { ...config.rateLimits, evaluation: 5 };
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const limited = [];
    for (let i = 0; i < 6; i++) limited.push((await evaluate(base)).status);
    expect(limited).toEqual([404, 404, 404, 404, 404, 429]);
  });

  it("count per kind and client address across the kind's routes, the legacy evaluation routes included", async () => {
    t = await startTestApp('sqlite', (config) => {
      config.rateLimits = { ...config.rateLimits, evaluation: 5, surveyWrites: 4 };
    });
    const post = (url: string, payload: Record<string, unknown>, remoteAddress = '192.0.2.10') =>
      t!.app.inject({ method: 'POST', url, payload, remoteAddress });
    const item = { flagKey: 'absent', entityId: 'e' };
    const statuses = [];
    for (const url of [
      '/evaluate/v1/variant',
      '/evaluate/v1/boolean',
      '/evaluate/v1/batch',
      '/api/v1/namespaces/default/evaluate',
      '/api/v1/namespaces/default/batch-evaluate',
      '/api/v1/evaluate',
    ])
      statuses.push((await post(url, { ...item, requests: [] })).statusCode);
    expect(statuses.slice(0, 5)).not.toContain(429);
    expect(statuses[5]).toBe(429);
    // The legacy namespaced routes are limited on their own too.
    for (let i = 0; i < 5; i++) await post('/api/v1/namespaces/default/evaluate', item, '192.0.2.11');
    expect((await post('/api/v1/namespaces/default/evaluate', item, '192.0.2.11')).statusCode).toBe(429);
    expect((await post('/api/v1/namespaces/default/batch-evaluate', { requests: [] }, '192.0.2.11')).statusCode).toBe(
      429,
    );
    // Displays, responses, actions and people share the survey write budget.
    const client = `/api/v1/client/${ENV}`;
    const writes = [
      await post(`${client}/displays`, { surveyId: SURVEY }, '192.0.2.12'),
      await post(`${client}/responses`, { surveyId: SURVEY, finished: false, data: {} }, '192.0.2.12'),
      await post(`${client}/people`, { userId: 'u1' }, '192.0.2.12'),
      await post(`${client}/actions`, { userId: 'u1', name: 'clicked' }, '192.0.2.12'),
      await post(`${client}/people/u1`, { attributes: { plan: 'pro' } }, '192.0.2.12'),
    ].map((response) => response.statusCode);
    expect(writes.slice(0, 4)).not.toContain(429);
    expect(writes[4]).toBe(429);
  });

  it('count only the routes of their kind: the full route scan', async () => {
    const routes: RouteOptions[] = [];
    const database = await createTestDatabase('sqlite');
    const config = defaultConfig();
    config.db.url = database.url;
    config.authentication = {
      ...GITHUB,
      methods: {
        ...GITHUB.methods,
        oidc: {
          enabled: true,
          providers: {
            google: {
              issuer_url: 'http://idp.invalid',
              client_id: 'client',
              client_secret: 'secret',
              redirect_address: 'http://localhost:8080',
            },
          },
        },
      },
    };
    const app = await buildApp(config, { onRoute: (route) => routes.push(route) });
    await app.ready();
    await app.close();
    await database.drop();
    const limited = routes
      .filter((route) => route.config?.limitedKind)
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(limited).toEqual(
      [
        'GET /auth/v1/method/github/authorize',
        'GET /auth/v1/method/github/callback',
        'GET /auth/v1/method/oidc/:provider/authorize',
        'GET /auth/v1/method/oidc/:provider/callback',
        'POST /api/v1/client/:environmentId/actions',
        'POST /api/v1/client/:environmentId/displays',
        'POST /api/v1/client/:environmentId/people',
        'POST /api/v1/client/:environmentId/people/:userId',
        'POST /api/v1/client/:environmentId/responses',
        'POST /api/v1/client/:environmentId/storage',
        'POST /api/v1/client/:environmentId/storage/local',
        'POST /auth/v1/method/token',
        'PUT /api/v1/client/:environmentId/displays/:displayId',
        'PUT /api/v1/client/:environmentId/responses/:responseId',
        // today's client API (server/surveys/current-client.ts)
        'POST /api/v1/client/:environmentId/user',
        'POST /api/v2/client/:environmentId/user',
        'POST /api/v2/client/:environmentId/displays',
        'POST /api/v2/client/:environmentId/responses',
        'PUT /api/v2/client/:environmentId/responses/:responseId',
        'POST /api/v2/client/:environmentId/storage',
        'POST /api/v2/client/:environmentId/storage/local',
      ].sort(),
    );
    expect(limitedKindOf('POST', '/evaluate/v1/variant')).toBe('evaluation');
    expect(limitedKindOf('GET', '/internal/v1/evaluation/snapshot/namespace/:key')).toBe('evaluation');
    expect(limitedKindOf('POST', '/api/v1/namespaces/:namespaceKey/evaluate')).toBe('evaluation');
    expect(limitedKindOf('POST', '/api/v1/namespaces/:namespaceKey/batch-evaluate')).toBe('evaluation');
    expect(limitedKindOf('GET', '/api/v1/namespaces')).toBeUndefined();
  });

  it('read server.rate_limits and surveys.upload_quota_mb, and refuse a bad value with one line naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ensign-limits-'));
    try {
      const file = join(dir, 'config.yml');
      writeFileSync(
        file,
        'server:\n  rate_limits: { window: 30s, login: 5, evaluation: 100 }\nsurveys:\n  upload_quota_mb: 2\n',
      );
      const config = loadConfig({ config: file }, {});
      expect(config.rateLimits).toEqual({ ...defaultConfig().rateLimits, windowMs: 30_000, login: 5, evaluation: 100 });
      expect(config.surveys.uploadQuotaBytes).toBe(2 * 1024 * 1024);
      expect(() => parseConfigFile('server:\n  rate_limits: { login: -1 }\n')).toThrow(
        new ConfigError('config: server.rate_limits.login must be 0 or more (got -1)'),
      );
      expect(() => parseConfigFile('server:\n  rate_limits: { logins: 3 }\n')).toThrow(
        new ConfigError('config: unknown key "server.rate_limits.logins"'),
      );
      writeFileSync(file, 'server:\n  rate_limits: { window: 0s }\n');
      expect(() => loadConfig({ config: file }, {})).toThrow(
        new ConfigError('server.rate_limits.window must be 1s or longer (got "0s")'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
