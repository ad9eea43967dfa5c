import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { comparable, startTestApp, type TestApp } from '../support.js';

const DEMO_ENVIRONMENT = 'clensigndemoenvironment0';

describe('security headers', () => {
  let t: TestApp;
  let consoleDir: string;
  let base: string;
  beforeAll(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'ensign-console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Ensign</title>');
    t = await startTestApp('sqlite', (config) => {
      config.paths.console = consoleDir;
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  const get = (url: string) => fetch(`${base}${url}`);

  it('the console cannot be framed, runs only its own scripts and is never sniffed', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('every kind of API answer carries them, errors and the evaluation fast path included', async () => {
    const evaluation = await fetch(`${base}/evaluate/v1/boolean`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ namespaceKey: 'default', flagKey: 'absent', entityId: 'e' }),
    });
    expect(evaluation.headers.get('x-content-type-options')).toBe('nosniff');
    expect(evaluation.headers.get('referrer-policy')).toBe('no-referrer');
    for (const url of ['/api/v1/namespaces', '/api/v1/namespaces/absent', '/no/such/route', '/health', '/meta/info']) {
      const response = await get(url);
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(response.headers.get('content-security-policy'), url).toContain("frame-ancestors 'none'");
      expect(response.headers.get('cross-origin-resource-policy'), url).toBe('same-origin');
    }
  });

  it("the evaluation fast path's answers carry exactly the headers Fastify gives the same route", async () => {
    const handled = vi.spyOn(t.app.hotPath, 'handle');
    const body = JSON.stringify({ namespaceKey: 'default', flagKey: 'absent', entityId: 'e' });
    for (const url of ['/evaluate/v1/variant', '/evaluate/v1/boolean']) {
      handled.mockClear();
      const fast = await fetch(`${base}${url}`, { method: 'POST', body });
      expect(handled.mock.results.map((result) => result.value)).toEqual([true]);
      const routed = await t.app.inject({ method: 'POST', url, payload: body });
      expect(comparable(Object.fromEntries(fast.headers)), url).toEqual(comparable(routed.headers));
      expect(fast.headers.get('x-frame-options')).toBe('DENY');
      expect(fast.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    handled.mockRestore();
  });

  it('the survey client API and the widget files stay usable from any site', async () => {
    const state = await fetch(`${base}/api/v1/client/${DEMO_ENVIRONMENT}/in-app/sync`, {
      headers: { origin: 'https://shop.example' },
    });
    expect(state.status).toBe(200);
    expect(state.headers.get('access-control-allow-origin')).toBe('*');
    expect(state.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(state.headers.get('x-content-type-options')).toBe('nosniff');
    const preflight = await fetch(`${base}/api/v1/client/${DEMO_ENVIRONMENT}/displays`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const loader = await get('/js/formbricks.js');
    expect(loader.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('the demo page keeps its own stricter policy', async () => {
    const response = await get('/demo');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain('https:');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
