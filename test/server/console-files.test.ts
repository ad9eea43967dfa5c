import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support.js';

describe('the console files', () => {
  let t: TestApp;
  let consoleDir: string;
  beforeAll(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'ensign-console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Ensign</title>');
    writeFileSync(join(consoleDir, 'main-ABC.js'), 'import("./chunks/Page-DEF.js")');
    writeFileSync(join(consoleDir, 'main-ABC.js.map'), '{"version":3}');
    mkdirSync(join(consoleDir, 'chunks'));
    writeFileSync(join(consoleDir, 'chunks', 'Page-DEF.js'), 'export const page = 1;');
    t = await startTestApp('sqlite', (config) => {
      config.paths.console = consoleDir;
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  const request = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });

  it('serves index.html at / and the files at the top of the folder', async () => {
    const index = await request('/');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.body).toContain('<title>Ensign</title>');
    const entry = await request('/main-ABC.js');
    expect(entry.statusCode).toBe(200);
    expect(entry.headers['content-type']).toMatch(/javascript/);
    expect((await request('/main-ABC.js.map')).body).toBe('{"version":3}');
  });

  it('serves the files of a sub-folder, to GET and HEAD', async () => {
    const chunk = await request('/chunks/Page-DEF.js');
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['content-type']).toMatch(/javascript/);
    expect(chunk.body).toBe('export const page = 1;');
    const head = await request('/chunks/Page-DEF.js', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String('export const page = 1;'.length));
    expect(head.body).toBe('');
  });

  it('answers a missing file, at the top or in a sub-folder, with the API not-found error', async () => {
    for (const url of ['/missing.js', '/chunks/missing.js', '/chunks/']) {
      const response = await request(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ code: 5, message: 'Not Found', details: [] });
    }
  });
});
