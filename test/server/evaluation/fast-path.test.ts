import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

/** The evaluation hot path answers real HTTP requests before Fastify; these check it answers as Fastify's routes do. */
async function post(url: string, body: string) {
  const response = await fetch(url, { method: 'POST', body });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

const volatile = ({ requestId, timestamp, requestDurationMillis, ...rest }: Record<string, unknown>) => {
  expect(requestId).toEqual(expect.any(String));
  expect(timestamp).toMatch(/Z$/);
  expect(requestDurationMillis).toEqual(expect.any(Number));
  return rest;
};

describe.each(dialects)('evaluation hot path on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    const api = new Api(t.app);
    await api.flag('default', 'colour');
    const blue = await api.variant('default', 'colour', 'blue', '{"hex":"#00f"}');
    await api.segment('default', 'pros', [['STRING_COMPARISON_TYPE', 'plan', 'eq', 'pro']]);
    await api.rule('default', 'colour', ['pros'], [[blue.id, 100]], 1);
    await api.flag('default', 'switch', 'BOOLEAN_FLAG_TYPE', true);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => t.close());

  it('answers variant and boolean evaluations exactly as the Fastify routes do', async () => {
    for (const [path, body] of [
      [
        '/evaluate/v1/variant',
        { namespaceKey: 'default', flagKey: 'colour', entityId: 'e1', context: { plan: 'pro' } },
      ],
      ['/evaluate/v1/variant', { flagKey: 'colour', entityId: 'e2', context: { plan: 'free' } }],
      ['/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'switch', entityId: 'e1', context: {} }],
    ] as const) {
      const fast = await post(`${base}${path}`, JSON.stringify(body));
      const routed = await t.app.inject({ method: 'POST', url: path, payload: JSON.stringify(body) });
      expect(fast.status).toBe(200);
      expect(fast.type).toBe(routed.headers['content-type']);
      expect(volatile(JSON.parse(fast.text))).toEqual(volatile(routed.json()));
    }
    expect(
      volatile(
        JSON.parse(
          (await post(`${base}/evaluate/v1/variant`, '{"flagKey":"colour","entityId":"x","context":{"plan":"pro"}}'))
            .text,
        ),
      ),
    ).toMatchObject({
      match: true,
      variantKey: 'blue',
      variantAttachment: '{"hex":"#00f"}',
    });
  });

  it("answers errors in Flipt's shape: unknown flag, bad JSON, oversized body", async () => {
    const missing = await post(`${base}/evaluate/v1/variant`, '{"flagKey":"nope","entityId":"x"}');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({ code: 5, message: 'flag "default/nope" not found', details: [] });
    const bad = await post(`${base}/evaluate/v1/boolean`, '{"flagKey":');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({
      code: 3,
      message: 'invalid JSON body: the request body is not valid JSON',
      details: [],
    });
    const huge = await post(
      `${base}/evaluate/v1/variant`,
      JSON.stringify({ flagKey: 'colour', entityId: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.text)).toMatchObject({ code: 8 });
    // The server is still there.
    expect((await post(`${base}/evaluate/v1/boolean`, '{"flagKey":"switch","entityId":"x"}')).status).toBe(200);
  });

  it('leaves ?pretty and trailing slashes to Fastify', async () => {
    const pretty = await post(`${base}/evaluate/v1/boolean?pretty`, '{"flagKey":"switch","entityId":"x"}');
    expect(pretty.status).toBe(200);
    expect(pretty.text).toContain('\n  ');
    const accepted = await fetch(`${base}/evaluate/v1/variant`, {
      method: 'POST',
      headers: { accept: 'application/json+pretty' },
      body: '{"flagKey":"colour","entityId":"x"}',
    });
    expect(await accepted.text()).toContain('\n  ');
    expect((await post(`${base}/evaluate/v1/boolean/`, '{"flagKey":"switch","entityId":"x"}')).status).toBe(200);
  });
});

describe('evaluation hot path with authentication required', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('is not taken, so evaluations still need credentials', async () => {
    t = await startTestApp('sqlite', (config) => {
      config.authentication = {
        required: true,
        methods: { token: { enabled: true, bootstrap: { token: 'secret-token' } } },
      };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const anonymous = await post(`${base}/evaluate/v1/boolean`, '{"flagKey":"switch","entityId":"x"}');
    expect(anonymous.status).toBe(401);
    const response = await fetch(`${base}/evaluate/v1/boolean`, {
      method: 'POST',
      headers: { authorization: 'Bearer secret-token' },
      body: '{"flagKey":"switch","entityId":"x"}',
    });
    expect(response.status).toBe(404);
  });
});
