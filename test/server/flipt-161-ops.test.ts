import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, postgresUrl, startTestApp, type TestApp } from './support.js';

// Deployment items of Flipt 1.48 to 1.61 that no other suite covers: ui.enabled, postgresql:// URLs, the
// CORS headers browser SDKs send, and /meta/config without the database's address.

describe.each(dialects)('ui.enabled: false (Flipt v1.58) on %s', (dialect) => {
  let t: TestApp;
  let consoleDir: string;
  beforeAll(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'ensign-console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Ensign</title>');
    t = await startTestApp(dialect, (config) => {
      config.paths.console = consoleDir;
      config.ui.enabled = false;
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('serves the API only: no console, even with its files present', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/index.html' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/namespaces' })).statusCode).toBe(200);
  });
});

describe.runIf(postgresUrl)('db.url with the postgresql:// scheme (Flipt v1.48)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres', (config) => {
      config.db.url = config.db.url.replace(/^postgres:\/\//, 'postgresql://');
    });
  });
  afterAll(() => t.close());

  it('opens PostgreSQL as postgres:// does', async () => {
    expect(t.config.db.url).toMatch(/^postgresql:\/\//);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/namespaces',
      payload: { key: 'pg', name: 'PG' },
    });
    expect(created.statusCode).toBe(200);
  });
});

describe('CORS defaults for browser SDKs (Flipt v1.48) and /meta/config', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', (config) => {
      config.cors.enabled = true;
    });
  });
  afterAll(() => t.close());

  it('allows X-Flipt-Namespace and X-Flipt-Accept-Server-Version by default', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/internal/v1/evaluation/snapshot/namespace/default',
      headers: {
        origin: 'http://shop.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-flipt-namespace,x-flipt-accept-server-version',
      },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['x-flipt-namespace', 'x-flipt-accept-server-version']));
  });

  it('leaves the database address and user out of /meta/config (Flipt v1.52.2)', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/meta/config' })).json();
    expect(config.db).toEqual({});
  });
});
