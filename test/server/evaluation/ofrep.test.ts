import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature } from '@openfeature/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

/** OFREP (`/ofrep/v1`) over real HTTP, so that both the hot path and the Fastify routes answer. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const minute = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe.each(dialects)('OFREP on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = new Api(t.app);
    await api.flag('default', 'colour');
    const blue = await api.variant('default', 'colour', 'blue', '{"hex":"#00f"}');
    await api.variant('default', 'colour', 'red');
    await api.segment('default', 'pros', [['STRING_COMPARISON_TYPE', 'plan', 'eq', 'pro']]);
    await api.rule('default', 'colour', ['pros'], [[blue.id, 100]], 1);
    await api.flag('default', 'switch', 'BOOLEAN_FLAG_TYPE', true);
    await api.segmentRollout('default', 'switch', 1, ['pros'], false);
    await api.flag('default', 'retired', 'VARIANT_FLAG_TYPE', false);
    await api.ok('POST', '/api/v1/namespaces', { key: 'team', name: 'Team' });
    await api.flag('team', 'colour', 'BOOLEAN_FLAG_TYPE', false);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => t.close());

  it('describes the provider configuration', async () => {
    const response = await fetch(`${base}/ofrep/v1/configuration`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      name: 'flipt',
      capabilities: {
        cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: 1000 } },
        flagEvaluation: { supportedTypes: ['string', 'boolean'] },
      },
    });
  });

  it('evaluates a variant flag: the variant key as value, the attachment in metadata', async () => {
    const pro = await post(`${base}/ofrep/v1/evaluate/flags/colour`, { context: { targetingKey: 'u1', plan: 'pro' } });
    expect(pro).toMatchObject({ status: 200 });
    expect(pro.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(pro.body).toEqual({
      key: 'colour',
      reason: 'TARGETING_MATCH',
      variant: 'blue',
      value: 'blue',
      metadata: { attachment: '{"hex":"#00f"}' },
    });
    const free = await post(`${base}/ofrep/v1/evaluate/flags/colour`, {
      context: { targetingKey: 'u1', plan: 'free' },
    });
    expect(free.body).toEqual({ key: 'colour', reason: 'UNKNOWN', variant: '', value: '', metadata: {} });
    const retired = await post(`${base}/ofrep/v1/evaluate/flags/retired`, { context: { targetingKey: 'u1' } });
    expect(retired.body).toEqual({ key: 'retired', reason: 'DISABLED', variant: '', value: '', metadata: {} });
  });

  it('evaluates a boolean flag to a boolean, without a targeting key too', async () => {
    expect((await post(`${base}/ofrep/v1/evaluate/flags/switch`, { context: { plan: 'pro' } })).body).toEqual({
      key: 'switch',
      reason: 'TARGETING_MATCH',
      variant: 'false',
      value: false,
      metadata: {},
    });
    expect((await post(`${base}/ofrep/v1/evaluate/flags/switch`, {})).body).toMatchObject({
      value: true,
      reason: 'DEFAULT',
    });
  });

  it('reads numbers and booleans in the context as strings', async () => {
    await api.segment('default', 'adults', [['NUMBER_COMPARISON_TYPE', 'age', 'gte', '18']]);
    await api.flag('default', 'adult');
    const yes = await api.variant('default', 'adult', 'yes');
    await api.rule('default', 'adult', ['adults'], [[yes.id, 100]], 1);
    expect((await post(`${base}/ofrep/v1/evaluate/flags/adult`, { context: { age: 21 } })).body.value).toBe('yes');
    expect((await post(`${base}/ofrep/v1/evaluate/flags/adult`, { context: { age: 12 } })).body.value).toBe('');
  });

  it('takes the namespace from X-Flipt-Namespace', async () => {
    const team = await post(`${base}/ofrep/v1/evaluate/flags/colour`, {}, { 'x-flipt-namespace': 'team' });
    expect(team.body).toMatchObject({ key: 'colour', value: false, reason: 'DEFAULT' });
  });

  it("answers failures in OFREP's shape, on the hot path and through Fastify alike", async () => {
    const cases: [url: string, body: string, status: number, answer: Record<string, unknown>][] = [
      [
        '/ofrep/v1/evaluate/flags/nope',
        '{}',
        404,
        { key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag "default/nope" not found' },
      ],
      [
        '/ofrep/v1/evaluate/flags/colour',
        '{"context":',
        400,
        {
          key: 'colour',
          errorCode: 'PARSE_ERROR',
          errorDetails: 'invalid JSON body: the request body is not valid JSON',
        },
      ],
      [
        '/ofrep/v1/evaluate/flags/colour',
        '{"context":[1]}',
        400,
        { key: 'colour', errorCode: 'PARSE_ERROR', errorDetails: 'context must be a JSON object' },
      ],
      [
        '/ofrep/v1/evaluate/flags/colour',
        '{"context":{"plan":{"tier":1}}}',
        400,
        {
          key: 'colour',
          errorCode: 'INVALID_CONTEXT',
          errorDetails: 'context value "plan" must be a string, number or boolean, not an object',
        },
      ],
      [
        '/ofrep/v1/evaluate/flags',
        '[]',
        400,
        { errorCode: 'PARSE_ERROR', errorDetails: 'the request body must be a JSON object' },
      ],
    ];
    for (const [url, body, status, answer] of cases) {
      const fast = await post(`${base}${url}`, body);
      expect([fast.status, fast.body], url).toEqual([status, answer]);
      const routed = await t.app.inject({ method: 'POST', url, payload: body });
      expect([routed.statusCode, routed.json()], url).toEqual([status, answer]);
    }
    // A percent-encoded key is left to Fastify, which decodes it.
    expect((await post(`${base}/ofrep/v1/evaluate/flags/%63olour`, {})).body).toMatchObject({ key: 'colour' });
  });

  it('evaluates the flags named in context.flags, a missing one as a failure', async () => {
    const response = await post(`${base}/ofrep/v1/evaluate/flags`, {
      context: { targetingKey: 'u1', plan: 'pro', flags: 'switch, colour,nope' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      flags: [
        { key: 'switch', reason: 'TARGETING_MATCH', variant: 'false', value: false, metadata: {} },
        {
          key: 'colour',
          reason: 'TARGETING_MATCH',
          variant: 'blue',
          value: 'blue',
          metadata: { attachment: '{"hex":"#00f"}' },
        },
        { key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag "default/nope" not found' },
      ],
    });
  });

  it('evaluates every boolean flag and every enabled variant flag without context.flags', async () => {
    const response = await post(`${base}/ofrep/v1/evaluate/flags`, { context: { targetingKey: 'u1' } });
    const keys = response.body.flags.map((flag: { key: string }) => flag.key);
    expect(keys).toContain('colour');
    expect(keys).toContain('switch');
    expect(keys).not.toContain('retired');
    const team = await post(`${base}/ofrep/v1/evaluate/flags`, {}, { 'x-flipt-namespace': 'team' });
    expect(team.body).toEqual({
      flags: [{ key: 'colour', reason: 'DEFAULT', variant: 'false', value: false, metadata: {} }],
    });
  });

  it('answers 304 to If-None-Match while neither the namespace nor the request changed', async () => {
    const request = { context: { targetingKey: 'u2', flags: 'colour,switch' } };
    const first = await post(`${base}/ofrep/v1/evaluate/flags`, request);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    const again = await post(`${base}/ofrep/v1/evaluate/flags`, request, { 'if-none-match': etag });
    expect([again.status, again.body, again.headers.get('etag')]).toEqual([304, undefined, etag]);
    expect((await post(`${base}/ofrep/v1/evaluate/flags`, request, { 'if-none-match': `W/${etag}, "x"` })).status).toBe(
      304,
    );

    const otherContext = await post(
      `${base}/ofrep/v1/evaluate/flags`,
      { context: { ...request.context, plan: 'pro' } },
      { 'if-none-match': etag },
    );
    expect(otherContext.status).toBe(200);
    const otherNamespace = await post(`${base}/ofrep/v1/evaluate/flags`, request, {
      'if-none-match': etag,
      'x-flipt-namespace': 'team',
    });
    expect(otherNamespace.status).toBe(200);

    await api.ok('PUT', '/api/v1/namespaces/default/flags/switch', {
      key: 'switch',
      name: 'switch',
      enabled: false,
    });
    const changed = await post(`${base}/ofrep/v1/evaluate/flags`, request, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.flags[1]).toMatchObject({ key: 'switch', value: false, reason: 'DEFAULT' });
    await api.ok('PUT', '/api/v1/namespaces/default/flags/switch', { key: 'switch', name: 'switch', enabled: true });
  });

  it('counts OFREP evaluations in analytics, single and bulk', async () => {
    await api.flag('default', 'counted', 'BOOLEAN_FLAG_TYPE');
    for (let i = 0; i < 3; i++) await post(`${base}/ofrep/v1/evaluate/flags/counted`, {});
    const bulk = await post(`${base}/ofrep/v1/evaluate/flags`, { context: { flags: 'counted' } });
    await post(
      `${base}/ofrep/v1/evaluate/flags`,
      { context: { flags: 'counted' } },
      {
        'if-none-match': bulk.headers.get('etag')!,
      },
    );
    const from = encodeURIComponent(minute(Date.now() - 5 * 60_000));
    const to = encodeURIComponent(minute(Date.now() + 60_000));
    const series = await api.ok('GET', `/internal/v1/analytics/namespaces/default/flags/counted?from=${from}&to=${to}`);
    // Three single evaluations and one bulk one; the 304 evaluated nothing.
    expect(series.values.reduce((sum: number, v: number) => sum + v, 0)).toBe(4);
  });

  it('serves @openfeature/ofrep-provider through the OpenFeature server SDK', async () => {
    const domain = `ofrep-${dialect}`;
    await OpenFeature.setProviderAndWait(domain, new OFREPProvider({ baseUrl: base }));
    const client = OpenFeature.getClient(domain);
    const pro = await client.getStringDetails('colour', 'grey', { targetingKey: 'u1', plan: 'pro' });
    expect(pro).toMatchObject({
      value: 'blue',
      variant: 'blue',
      reason: 'TARGETING_MATCH',
      flagMetadata: { attachment: '{"hex":"#00f"}' },
    });
    // The context changes the answer.
    expect(await client.getBooleanValue('switch', true, { targetingKey: 'u1', plan: 'pro' })).toBe(false);
    expect(await client.getBooleanValue('switch', false, { targetingKey: 'u1', plan: 'free' })).toBe(true);
    const missing = await client.getStringDetails('nope', 'grey', { targetingKey: 'u1' });
    expect(missing).toMatchObject({ value: 'grey', errorCode: 'FLAG_NOT_FOUND', reason: 'ERROR' });
    expect(await client.getStringDetails('retired', 'grey', { targetingKey: 'u1' })).toMatchObject({
      reason: 'DISABLED',
    });
    // A type mismatch is the provider's to report, as OFREP has it.
    expect(await client.getNumberDetails('switch', 7, { targetingKey: 'u1' })).toMatchObject({
      value: 7,
      errorCode: 'TYPE_MISMATCH',
    });

    const team = `ofrep-team-${dialect}`;
    await OpenFeature.setProviderAndWait(
      team,
      new OFREPProvider({ baseUrl: base, headers: [['X-Flipt-Namespace', 'team']] }),
    );
    expect(await OpenFeature.getClient(team).getBooleanValue('colour', true, { targetingKey: 'u1' })).toBe(false);
  });
});

describe.each(dialects)('OFREP guarded by authentication on %s', (dialect) => {
  const BOOTSTRAP = 'ofrep-bootstrap-token';
  const token = { enabled: true, bootstrap: { token: BOOTSTRAP } };
  let guarded: TestApp;
  let excluded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp(dialect, (config) => {
      config.authentication = { required: true, methods: { token } };
    });
    excluded = await startTestApp(dialect, (config) => {
      config.authentication = { required: true, exclude: { ofrep: true }, methods: { token } };
    });
    for (const t of [guarded, excluded]) {
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/namespaces/default/flags',
        headers: { authorization: `Bearer ${BOOTSTRAP}` },
        payload: { key: 'switch', name: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
      });
    }
  });
  afterAll(async () => {
    await guarded?.close();
    await excluded?.close();
  });

  const evaluate = (t: TestApp, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/ofrep/v1/evaluate/flags/switch', headers, payload: {} });

  it('answers 401 without a credential, and evaluates with one', async () => {
    expect((await evaluate(guarded)).statusCode).toBe(401);
    expect(
      (await guarded.app.inject({ method: 'POST', url: '/ofrep/v1/evaluate/flags', payload: {} })).statusCode,
    ).toBe(401);
    expect((await guarded.app.inject({ method: 'GET', url: '/ofrep/v1/configuration' })).statusCode).toBe(401);
    const allowed = await evaluate(guarded, { authorization: `Bearer ${BOOTSTRAP}` });
    expect([allowed.statusCode, allowed.json().value]).toEqual([200, true]);
  });

  it('keeps a namespace-scoped token to the namespace X-Flipt-Namespace names', async () => {
    const created = await guarded.app.inject({
      method: 'POST',
      url: '/auth/v1/method/token',
      headers: { authorization: `Bearer ${BOOTSTRAP}` },
      payload: { name: 'team', namespaceKey: 'team' },
    });
    const scoped = `Bearer ${created.json().clientToken}`;
    expect((await evaluate(guarded, { authorization: scoped })).statusCode).toBe(401);
    const own = await evaluate(guarded, { authorization: scoped, 'x-flipt-namespace': 'team' });
    expect([own.statusCode, own.json().errorCode]).toEqual([404, 'FLAG_NOT_FOUND']);
  });

  it('leaves OFREP open with authentication.exclude.ofrep, and only OFREP', async () => {
    expect((await evaluate(excluded)).statusCode).toBe(200);
    const variant = { flagKey: 'switch', entityId: 'e' };
    expect(
      (await excluded.app.inject({ method: 'POST', url: '/evaluate/v1/boolean', payload: variant })).statusCode,
    ).toBe(401);
  });
});

describe('OFREP for browsers on another origin (cors.enabled)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', (config) => {
      config.cors.enabled = true;
      config.cors.allowedOrigins = ['http://shop.test'];
    });
  });
  afterAll(() => t.close());

  it('answers the preflight and exposes the ETag', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/ofrep/v1/evaluate/flags',
      headers: {
        origin: 'http://shop.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,if-none-match,x-flipt-namespace',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://shop.test');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('if-none-match');
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/ofrep/v1/evaluate/flags',
      headers: { origin: 'http://shop.test' },
      payload: {},
    });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.headers['access-control-allow-origin']).toBe('http://shop.test');
    expect(bulk.headers['access-control-expose-headers']).toBe('ETag');
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/ofrep/v1/evaluate/flags',
      headers: { origin: 'http://evil.test' },
      payload: {},
    });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });
});
