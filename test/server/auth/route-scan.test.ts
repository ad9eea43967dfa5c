import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config.js';
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

describe.each(dialects)('with authentication required, every route on %s', (dialect) => {
  const routes: { method: HTTPMethods; url: string }[] = [];
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
        token: { enabled: true },
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
    const onRoute = (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.push({ method: method as HTTPMethods, url: route.url });
    };
    app = await buildApp(config, { onRoute });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('answers 401 without credentials, except health, the method list, the login flow, static files and the survey APIs', async () => {
    const scanned = new Map<string, { status: number; refused: boolean }>();
    for (const { method, url } of routes) {
      const path = url.replace(/:[^/]+/g, 'x').replace(/\*$/, '/x');
      const response = await app.inject({
        method,
        url: path,
        ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}),
      });
      // Refused by enforcement, as opposed to a login callback's own 401 or a survey API's key check.
      const refused = response.statusCode === 401 && response.headers['www-authenticate'] === UNAUTHENTICATED.message;
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
});
