import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { openDatabase, type Database } from '../../../server/db/index.js';
import { ChangeFeed } from '../../../server/changes.js';
import { FliptStore } from '../../../server/flipt/store/index.js';
import { FliptError } from '../../../server/flipt/errors.js';
import { client, error, type Call } from './client.js';

describe.each(dialects)('Flipt wire conventions on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    call = client(t.app);
    await call('POST', '/api/v1/namespaces', { key: 'ns', name: 'NS' });
    for (const key of ['a', 'b', 'c', 'd', 'e'])
      await call('POST', '/api/v1/namespaces/ns/flags', { key, name: key.toUpperCase() });
  });
  afterAll(() => t.close());

  const keys = (body: { flags: { key: string }[] }) => body.flags.map((flag) => flag.key);

  it('pages flags with limit, pageToken and the deprecated offset', async () => {
    const first = await call('GET', '/api/v1/namespaces/ns/flags?limit=2');
    expect(keys(first.body)).toEqual(['a', 'b']);
    expect(first.body.totalCount).toBe(5);
    expect(JSON.parse(Buffer.from(first.body.nextPageToken, 'base64').toString())).toEqual({ key: 'c', offset: 2 });
    const second = await call(
      'GET',
      `/api/v1/namespaces/ns/flags?limit=2&pageToken=${encodeURIComponent(first.body.nextPageToken)}`,
    );
    expect(keys(second.body)).toEqual(['c', 'd']);
    const last = await call(
      'GET',
      `/api/v1/namespaces/ns/flags?limit=2&pageToken=${encodeURIComponent(second.body.nextPageToken)}`,
    );
    expect(keys(last.body)).toEqual(['e']);
    expect(last.body).toMatchObject({ nextPageToken: '', totalCount: 5 });
    expect(keys((await call('GET', '/api/v1/namespaces/ns/flags?limit=10&offset=3')).body)).toEqual(['d', 'e']);
    expect(keys((await call('GET', '/api/v1/namespaces/ns/flags?limit=5')).body)).toHaveLength(5);
    expect((await call('GET', '/api/v1/namespaces/ns/flags?limit=5')).body.nextPageToken).toBe('');
    expect(keys((await call('GET', '/api/v1/namespaces/ns/flags?limit=0&unknown=1')).body)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('answers bad list parameters with 400', async () => {
    const cases: [string, string][] = [
      ['offset=1', 'limit must be set when offset or pageToken is set'],
      ['pageToken=abc', 'limit must be set when offset or pageToken is set'],
      ['limit=2&pageToken=abc', 'pageToken is not valid: "abc"'],
      [
        `limit=2&pageToken=${Buffer.from('{"offset":"x"}').toString('base64')}`,
        `pageToken is not valid: "${Buffer.from('{"offset":"x"}').toString('base64')}"`,
      ],
      ['limit=-1', 'invalid field limit: must not be negative'],
      ['limit=abc', 'invalid field limit: must be a number'],
      ['limit=1.5', 'invalid field limit: must be an integer'],
    ];
    for (const [query, message] of cases) {
      expect(await call('GET', `/api/v1/namespaces/ns/flags?${query}`), query).toMatchObject({
        status: 400,
        body: error(3, message),
      });
    }
    expect((await call('GET', '/api/v1/namespaces/ns/segments?offset=1')).status).toBe(400);
  });

  it('lists nothing for a namespace that does not exist', async () => {
    expect(await call('GET', '/api/v1/namespaces/none/flags')).toMatchObject({
      status: 200,
      body: { flags: [], nextPageToken: '', totalCount: 0 },
    });
  });

  it('indents with ?pretty or Accept: application/json+pretty', async () => {
    const pretty = await call('GET', '/api/v1/namespaces/ns?pretty');
    expect(pretty.text).toBe(JSON.stringify(pretty.body, null, 2));
    const accepted = await t.app.inject({
      method: 'GET',
      url: '/api/v1/namespaces/ns',
      headers: { accept: 'application/json+pretty' },
    });
    expect(accepted.body).toContain('\n  "key": "ns"');
    expect((await call('GET', '/api/v1/namespaces/ns')).text).not.toContain('\n');
  });

  it('answers a body nested 50,000 levels deep with 400 on every kind of route, not a stack overflow', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const bodies = [`{"key":"deep","name":"Deep","metadata":{"a":${deep}}}`, deep];
    for (const [method, url] of [
      ['POST', '/api/v1/namespaces/ns/flags'],
      ['PUT', '/api/v1/namespaces/ns/flags/a'],
      ['POST', '/api/v1/namespaces/ns/segments'],
      ['POST', '/evaluate/v1/variant'],
      ['POST', '/evaluate/v1/batch'],
    ]) {
      for (const payload of bodies) {
        const response = await t.app.inject({
          method: method as 'POST',
          url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(response.json()).toMatchObject({ code: 3, message: 'invalid JSON body: nested deeper than 64 levels' });
      }
    }
    const survey = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client/clensigndemoenvironment0/responses',
      payload: `{"surveyId":"clensigndemosurveyexitin","data":${deep}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(survey.statusCode).toBe(400);
    expect(survey.json().message).toBe('The request body is nested deeper than 64 levels');
    // Brackets inside strings are text, not nesting.
    const text = await call('POST', '/api/v1/namespaces/default/flags', { key: 'brackets', name: '['.repeat(100) });
    expect(text.status).toBe(200);
  });

  it('decodes any content type as JSON and takes an empty body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/namespaces/ns/segments',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: '{"key":"plain","name":"Plain"}',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(await call('POST', '/api/v1/namespaces/ns/segments', '')).toMatchObject({
      status: 400,
      body: error(3, 'invalid field key: must not be empty'),
    });
  });

  it("answers unknown routes 404 and unknown methods 405 in Flipt's shape", async () => {
    expect(await call('GET', '/api/v1/namespaces/ns/widgets')).toMatchObject({
      status: 404,
      body: error(5, 'Not Found'),
    });
    expect(await call('PATCH', '/api/v1/namespaces/ns/flags/a')).toMatchObject({
      status: 405,
      body: error(12, 'Method Not Allowed'),
    });
    expect(await call('POST', '/api/v1/namespaces/ns/flags/a')).toMatchObject({
      status: 405,
      body: error(12, 'Method Not Allowed'),
    });
    expect(await call('DELETE', '/api/v1/namespaces')).toMatchObject({
      status: 405,
      body: error(12, 'Method Not Allowed'),
    });
    expect((await call('GET', '/api/v1/namespaces/ns/flags/a/')).status).toBe(200);
  });

  it('answers bodies over 1 MiB with 413 and writes nothing', async () => {
    const huge = JSON.stringify({ key: 'huge', name: 'x'.repeat(1024 * 1024) });
    expect(await call('POST', '/api/v1/namespaces/ns/flags', huge)).toMatchObject({
      status: 413,
      body: error(8, 'request body is too large (the limit is 1048576 bytes)'),
    });
    expect((await call('GET', '/api/v1/namespaces/ns/flags/huge')).status).toBe(404);
  });

  it('serves keys of the full 255 characters in paths', async () => {
    const key = 'k'.repeat(255);
    expect((await call('POST', '/api/v1/namespaces/ns/segments', { key, name: 'Long' })).status).toBe(200);
    expect((await call('GET', `/api/v1/namespaces/ns/segments/${key}`)).body.key).toBe(key);
    expect((await call('DELETE', `/api/v1/namespaces/ns/segments/${key}`)).status).toBe(200);
    expect(await call('GET', `/api/v1/namespaces/ns/segments/${'k'.repeat(2000)}`)).toMatchObject({
      status: 414,
      body: { code: 3, details: [] },
    });
  });

  it('lets exactly one of many concurrent creates of a key win, the others answered 4xx', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '/api/v1/namespaces/ns/flags', { key: 'race', name: 'Race' })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 400 || status === 409)).toBe(true);
    await call('DELETE', '/api/v1/namespaces/ns/flags/race');
  });

  describe('the store', () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase(t.database.url, { migrate: false });
    });
    afterAll(() => database.close());

    it("refuses every write when read-only, with Flipt's error", async () => {
      const store = new FliptStore(database, new ChangeFeed(), { readOnly: true });
      const refused = await store
        .createFlag({
          namespaceKey: 'ns',
          key: 'ro',
          name: 'RO',
          description: '',
          enabled: false,
          type: 'VARIANT_FLAG_TYPE',
          metadata: undefined,
        })
        .catch((e) => e);
      expect(refused).toBeInstanceOf(FliptError);
      expect(refused.httpStatus).toBe(500);
      expect(refused.toJSON()).toEqual(error(13, 'not implemented'));
      expect((await store.listFlags('ns')).flags.map((flag) => flag.key)).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('commits a transaction whole or not at all, and publishes each namespace once after the commit', async () => {
      const changes = new ChangeFeed();
      const published: string[] = [];
      changes.subscribe((namespaceKey) => {
        published.push(namespaceKey);
      });
      const store = new FliptStore(database, changes, { readOnly: false });
      const flag = {
        namespaceKey: 'ns',
        name: 'T',
        description: '',
        enabled: false,
        type: 'VARIANT_FLAG_TYPE' as const,
        metadata: undefined,
      };

      const failed = await store
        .transaction(async (tx) => {
          await tx.createFlag({ ...flag, key: 'tx1' });
          await tx.createVariant({
            namespaceKey: 'ns',
            flagKey: 'tx1',
            key: 'v',
            name: '',
            description: '',
            attachment: '',
          });
          await tx.createFlag({ ...flag, key: 'tx1' });
        })
        .catch((e) => e);
      expect(failed.message).toBe('flag "ns/tx1" is not unique');
      expect(published).toEqual([]);
      expect((await store.getFlag('ns', 'tx1').catch((e) => e)).message).toBe('flag "ns/tx1" not found');

      await store.transaction(async (tx) => {
        await tx.createFlag({ ...flag, key: 'tx1' });
        await tx.createFlag({ ...flag, key: 'tx2' });
        await tx.createNamespace({ key: 'tx-ns', name: 'X', description: '' });
      });
      expect(published.sort()).toEqual(['ns', 'tx-ns']);
      expect((await store.getFlag('ns', 'tx2')).key).toBe('tx2');
      await store.deleteFlag('ns', 'tx1');
      await store.deleteFlag('ns', 'tx2');
      expect(published).toHaveLength(4);
    });
  });
});
