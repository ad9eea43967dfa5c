import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config/index.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';
import { UNAUTHENTICATED } from './helpers.js';

/** Flipt's API mounts; the survey APIs under /api/v1 (Formbricks client and management) have their own keys. */
const FLIPT_MOUNT =
  /^\/(api\/v1(?!\/(client|management)(\/|\*|$))|evaluate\/v1|internal\/v1|auth\/v1|meta|ofrep\/v1)(\/|$)/;

/** Inside the Flipt mounts, only these answer without credentials: the method list and the login flow. */
const PUBLIC_IN_MOUNTS = [
  'GET /auth/v1/method',
  'HEAD /auth/v1/method',
  'GET /auth/v1/method/oidc/:provider/authorize',
  'GET /auth/v1/method/oidc/:provider/callback',
  'GET /auth/v1/method/github/authorize',
  'GET /auth/v1/method/github/callback',
  'HEAD /auth/v1/method/oidc/:provider/authorize',
  'HEAD /auth/v1/method/oidc/:provider/callback',
  'HEAD /auth/v1/method/github/authorize',
  'HEAD /auth/v1/method/github/callback',
];

const TOKEN = 'route-scan-bootstrap-token';

describe.each(dialects)('with authentication required, every route on %s', (dialect) => {
  const routes: RouteOptions[] = [];
  let app: FastifyInstance;
  let database: TestDatabase;
  let consoleDir: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    consoleDir = mkdtempSync(join(tmpdir(), 'ensign-console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Ensign</title>');
    writeFileSync(join(consoleDir, 'app.js'), 'console.log(1)');
    const config = defaultConfig();
    config.db.url = database.url;
    config.paths.console = consoleDir;
    config.authentication = {
      required: true,
      session: { domain: 'ensign.test', csrf: { key: 'k'.repeat(32) } },
      methods: {
        token: { enabled: true, bootstrap: { token: TOKEN } },
        jwt: { enabled: true, jwks_url: 'http://127.0.0.1:9/jwks' },
        github: {
          enabled: true,
          client_id: 'a',
          client_secret: 'b',
          redirect_address: 'http://ensign.test',
          server_url: 'http://127.0.0.1:9',
          api_url: 'http://127.0.0.1:9',
        },
        oidc: {
          enabled: true,
          providers: {
            local: {
              issuer_url: 'http://127.0.0.1:9',
              client_id: 'a',
              client_secret: 'b',
              redirect_address: 'http://ensign.test',
            },
          },
        },
      },
    };
    // The options objects themselves: the protection each route declares is read once all are registered.
    app = await buildApp(config, { onRoute: (route) => routes.push(route) });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  const everyRoute = () =>
    routes.flatMap((route) =>
      [route.method].flat().map((method) => ({
        method: method as HTTPMethods,
        url: route.url,
        protection: route.config?.protection,
        declared: route.config?.declared === true,
      })),
    );
  const call = (method: HTTPMethods, url: string, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url: url.replace(/:[^/]+/g, 'x').replace(/\*$/, '/x'),
      headers,
      ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}),
    });
  const refusedByEnforcement = (response: { statusCode: number; headers: Record<string, unknown> }) =>
    response.statusCode === 401 && response.headers['www-authenticate'] === UNAUTHENTICATED.message;

  it('answers 401 without credentials, except health, the method list, the login flow, static files and the survey APIs', async () => {
    const scanned = new Map<string, { status: number; refused: boolean }>();
    for (const { method, url } of everyRoute()) {
      const response = await call(method, url);
      // Refused by enforcement, as opposed to a login callback's own 401 or a survey API's key check.
      const refused = refusedByEnforcement(response);
      if (refused && method !== 'HEAD') expect(response.json()).toEqual(UNAUTHENTICATED);
      scanned.set(`${method} ${url}`, { status: response.statusCode, refused });
    }
    const expectedPublic = (key: string) => {
      const url = key.slice(key.indexOf(' ') + 1);
      return !FLIPT_MOUNT.test(url) || PUBLIC_IN_MOUNTS.includes(key);
    };
    const wrong = [...scanned].filter(([key, { refused }]) => refused === expectedPublic(key));
    expect(wrong).toEqual([]);

    // The scan covered every kind of route, so that the rule above is not vacuously true.
    for (const key of [
      'GET /health',
      'GET /api/v1/namespaces',
      'GET /meta/info',
      'GET /auth/v1/self',
      'GET /auth/v1/tokens',
      'POST /auth/v1/method/token',
      'GET /index.html',
      'GET /auth/v1/method',
      'POST /ofrep/v1/evaluate/flags/:key',
    ]) {
      expect(scanned.has(key), key).toBe(true);
    }
  });

  it('declares a protection on every route, and every route not declared public is let in with a credential only', async () => {
    const undeclared = everyRoute().filter((route) => route.protection === undefined);
    expect(undeclared).toEqual([]);
    // Expiring the caller's own authentication comes last: it ends the token the others are called with.
    const guarded = everyRoute()
      .filter((route) => route.protection !== 'public')
      .sort((a, b) => Number(a.url === '/auth/v1/self/expire') - Number(b.url === '/auth/v1/self/expire'));
    expect(guarded.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const { method, url } of guarded) {
      if (!refusedByEnforcement(await call(method, url))) wrong.push(`${method} ${url} answered without credentials`);
      if (refusedByEnforcement(await call(method, url, { authorization: `Bearer ${TOKEN}` })))
        wrong.push(`${method} ${url} refused the bootstrap token`);
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Routes the survey provider still registers by hand (file storage and the demo page), to be moved to
 * route tables with the survey routes' restructuring; no other route may join them.
 */
const NOT_YET_IN_A_TABLE = [
  'POST /api/v1/client/:environmentId/storage',
  'POST /api/v1/client/:environmentId/storage/local',
  'GET /storage/:environmentId/:access/:fileName',
  'HEAD /storage/:environmentId/:access/:fileName',
  'GET /demo',
  'HEAD /demo',
];

describe.each(dialects)('every route on %s', (dialect) => {
  it('is declared through a route table, but CORS preflights and static folders', async () => {
    const database = await createTestDatabase(dialect);
    const config = defaultConfig();
    config.db.url = database.url;
    const routes: RouteOptions[] = [];
    const app = await buildApp(config, { onRoute: (route) => routes.push(route) });
    try {
      await app.ready();
      const byHand = routes
        .filter((route) => route.config?.declared !== true)
        .flatMap((route) => [route.method].flat().map((method) => `${method} ${route.url}`))
        // @fastify/cors answers preflights, @fastify/static a folder's files: neither is a route of ours.
        .filter((key) => !key.startsWith('OPTIONS ') && !key.endsWith('/*'));
      expect(byHand.filter((key) => !NOT_YET_IN_A_TABLE.includes(key))).toEqual([]);
      expect(routes.filter((route) => route.config?.declared).length).toBeGreaterThan(100);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

describe('a route that declares no protection', () => {
  it('stops the start, named, whether registered at the root or in a scope', async () => {
    const database = await createTestDatabase('sqlite');
    const config = defaultConfig();
    config.db.url = database.url;
    const app = await buildApp(config);
    try {
      expect(() => app.get('/api/v1/forgotten', async () => ({}))).toThrow(
        'route GET /api/v1/forgotten declares no protection (config.protection or protectRoutes)',
      );
      app.register(async (scope) => {
        scope.post('/internal/v1/forgotten', async () => ({}));
      });
      await expect(app.ready()).rejects.toThrow(
        'route POST /internal/v1/forgotten declares no protection (config.protection or protectRoutes)',
      );
    } finally {
      await app.close().catch(() => {});
      await database.drop();
    }
  });
});
