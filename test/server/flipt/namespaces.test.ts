import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { client, error, TIMESTAMP, type Call } from './client.js';

describe.each(dialects)('Flipt namespaces on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    call = client(t.app);
  });
  afterAll(() => t.close());

  it('creates, gets, replaces and deletes a namespace', async () => {
    const created = await call('POST', '/api/v1/namespaces', { key: 'team-a', name: 'Team A', description: 'first' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      key: 'team-a',
      name: 'Team A',
      description: 'first',
      protected: false,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: created.body.createdAt,
    });
    expect((await call('GET', '/api/v1/namespaces/team-a')).body).toEqual(created.body);

    // PUT replaces: the omitted description is cleared; protected cannot be set.
    const updated = await call('PUT', '/api/v1/namespaces/team-a', { name: 'Team A2', protected: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ key: 'team-a', name: 'Team A2', description: '', protected: false });
    expect(updated.body.updatedAt > created.body.updatedAt).toBe(true);

    expect(await call('DELETE', '/api/v1/namespaces/team-a')).toMatchObject({ status: 200, body: {} });
    expect(await call('GET', '/api/v1/namespaces/team-a')).toMatchObject({
      status: 404,
      body: error(5, 'namespace "team-a" not found'),
    });
  });

  it('validates keys and names', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x' }, 'invalid field key: must not be empty'],
      [{ key: 'a.b', name: 'x' }, 'invalid field key: contains invalid characters'],
      [{ key: 'ok' }, 'invalid field name: must not be empty'],
      [{ key: 'k'.repeat(256), name: 'x' }, 'invalid field key: must be at most 255 characters'],
      [{ key: 'ok', name: 'n'.repeat(256) }, 'invalid field name: must be at most 255 characters'],
      [{ key: 7, name: 'x' }, 'invalid field key: must be a string'],
      [[1, 2], 'invalid request body: must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      expect(await call('POST', '/api/v1/namespaces', body)).toMatchObject({ status: 400, body: error(3, message) });
    }
    expect(await call('POST', '/api/v1/namespaces', { key: 'a,b-c_D9', name: 'x' })).toMatchObject({ status: 200 });
    expect(await call('POST', '/api/v1/namespaces', '{"key": ')).toMatchObject({ status: 400, body: { code: 3 } });
  });

  it('refuses duplicates, unknown namespaces and the protected default', async () => {
    await call('POST', '/api/v1/namespaces', { key: 'dup', name: 'x' });
    expect(await call('POST', '/api/v1/namespaces', { key: 'dup', name: 'y' })).toMatchObject({
      status: 400,
      body: error(3, 'namespace "dup" is not unique'),
    });
    expect(await call('PUT', '/api/v1/namespaces/nope', { name: 'x' })).toMatchObject({
      status: 404,
      body: error(5, 'namespace "nope" not found'),
    });
    expect(await call('DELETE', '/api/v1/namespaces/nope')).toMatchObject({
      status: 404,
      body: error(5, 'namespace "nope" not found'),
    });
    expect(await call('DELETE', '/api/v1/namespaces/default')).toMatchObject({
      status: 400,
      body: error(3, 'namespace "default" is protected'),
    });
  });

  it('refuses to delete a namespace with flags, and cascades its segments', async () => {
    await call('POST', '/api/v1/namespaces', { key: 'busy', name: 'Busy' });
    await call('POST', '/api/v1/namespaces/busy/flags', { key: 'f', name: 'F' });
    await call('POST', '/api/v1/namespaces/busy/segments', { key: 's', name: 'S' });
    await call('POST', '/api/v1/namespaces/busy/segments/s/constraints', {
      type: 'STRING_COMPARISON_TYPE',
      property: 'p',
      operator: 'eq',
      value: 'v',
    });
    expect(await call('DELETE', '/api/v1/namespaces/busy')).toMatchObject({
      status: 400,
      body: error(3, 'namespace "busy" cannot be deleted; flags must be deleted first'),
    });
    await call('DELETE', '/api/v1/namespaces/busy/flags/f');
    expect((await call('DELETE', '/api/v1/namespaces/busy')).status).toBe(200);
    await call('POST', '/api/v1/namespaces', { key: 'busy', name: 'Again' });
    expect((await call('GET', '/api/v1/namespaces/busy/segments')).body.segments).toEqual([]);
  });

  it('deletes a non-empty namespace with ?force=true, flags, rules and segments included', async () => {
    await call('POST', '/api/v1/namespaces', { key: 'forced', name: 'Forced' });
    await call('POST', '/api/v1/namespaces/forced/flags', { key: 'f', name: 'F' });
    await call('POST', '/api/v1/namespaces/forced/segments', { key: 's', name: 'S' });
    await call('POST', '/api/v1/namespaces/forced/flags/f/rules', { segmentKey: 's', rank: 1 });
    await call('POST', '/api/v1/namespaces/forced/flags/f/rollouts', { rank: 1, segment: { segmentKey: 's' } });
    expect(await call('DELETE', '/api/v1/namespaces/forced?force=maybe')).toMatchObject({
      status: 400,
      body: error(3, 'invalid field force: must be a boolean'),
    });
    expect(await call('DELETE', '/api/v1/namespaces/forced?force=false')).toMatchObject({ status: 400 });
    expect(await call('DELETE', '/api/v1/namespaces/forced?force=true')).toMatchObject({ status: 200, body: {} });
    expect((await call('GET', '/api/v1/namespaces/forced')).status).toBe(404);
    await call('POST', '/api/v1/namespaces', { key: 'forced', name: 'Again' });
    expect((await call('GET', '/api/v1/namespaces/forced/flags')).body.flags).toEqual([]);
    expect((await call('GET', '/api/v1/namespaces/forced/segments')).body.segments).toEqual([]);
  });

  it('lists namespaces oldest first with pages', async () => {
    const fresh = await startTestApp(dialect);
    const c = client(fresh.app);
    try {
      for (const key of ['n1', 'n2', 'n3']) await c('POST', '/api/v1/namespaces', { key, name: key });
      const all = await c('GET', '/api/v1/namespaces');
      expect(all.body.namespaces.map((n: { key: string }) => n.key)).toEqual(['default', 'n1', 'n2', 'n3']);
      expect(all.body).toMatchObject({ nextPageToken: '', totalCount: 4 });
      const first = await c('GET', '/api/v1/namespaces?limit=3');
      expect(first.body.namespaces.map((n: { key: string }) => n.key)).toEqual(['default', 'n1', 'n2']);
      expect(first.body.totalCount).toBe(4);
      expect(JSON.parse(Buffer.from(first.body.nextPageToken, 'base64').toString())).toEqual({ key: 'n3', offset: 3 });
      const second = await c(
        'GET',
        `/api/v1/namespaces?limit=3&pageToken=${encodeURIComponent(first.body.nextPageToken)}`,
      );
      expect(second.body).toMatchObject({ nextPageToken: '', totalCount: 4 });
      expect(second.body.namespaces.map((n: { key: string }) => n.key)).toEqual(['n3']);
      // Namespaces, unlike flags, take an offset without a limit.
      expect(
        (await c('GET', '/api/v1/namespaces?offset=2')).body.namespaces.map((n: { key: string }) => n.key),
      ).toEqual(['n2', 'n3']);
    } finally {
      await fresh.close();
    }
  });
});
