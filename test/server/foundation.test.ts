import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from './support.js';
import { openDatabase, DatabaseOpenError } from '../../server/db/index.js';

describe.each(dialects)('foundation on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers /health', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'SERVING' });
  });

  it('lists the default namespace from storage in the Flipt list shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/namespaces' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const body = response.json();
    expect(body).toMatchObject({ nextPageToken: '', totalCount: 1 });
    expect(body.namespaces).toHaveLength(1);
    expect(body.namespaces[0]).toMatchObject({
      key: 'default',
      name: 'Default',
      description: 'Default namespace',
      protected: true,
    });
    expect(body.namespaces[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6})?Z$/);
  });

  it("answers unknown API routes with Flipt's not-found shape", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 5, message: 'Not Found', details: [] });
  });

  it('strips a trailing slash before routing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/namespaces/' });
    expect(response.statusCode).toBe(200);
  });

  it('runs migrations once: reopening the database keeps a single default namespace', async () => {
    const reopened = await openDatabase(t.database.url);
    const rows = await reopened.db.selectFrom('namespaces').selectAll().execute();
    await reopened.close();
    expect(rows.map((row) => row.key)).toEqual(['default']);
  });
});

describe('opening a database that cannot be opened', () => {
  it('names the problem in one line for an unreachable PostgreSQL server', async () => {
    const error = await openDatabase('postgres://nobody@127.0.0.1:1/none').catch((e) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect(error.message).toMatch(/^cannot reach database postgres:\/\/nobody@127\.0\.0\.1:1\/none: .*ECONNREFUSED/);
    expect(error.message).not.toContain('\n');
  });

  it('names the problem for a file path that cannot be created', async () => {
    const error = await openDatabase('file:/etc/passwd/ensign.db').catch((e) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect(error.message).toMatch(/^cannot open database file:\/etc\/passwd\/ensign\.db: /);
  });

  it('refuses in-memory SQLite with the reason', async () => {
    await expect(openDatabase('file::memory:')).rejects.toThrow(/in-memory SQLite is not supported/);
  });

  it('refuses an unknown scheme', async () => {
    await expect(openDatabase('mysql://x')).rejects.toThrow(/unsupported database url "mysql:\/\/x"/);
  });
});
