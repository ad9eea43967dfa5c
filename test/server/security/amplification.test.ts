import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_ITEMS, MAX_BATCH_NAMESPACES } from '../../../server/evaluation/wire.js';
import { MAX_BULK_FLAGS } from '../../../server/evaluation/ofrep.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from '../evaluation/api.js';

/** Requests whose answer or work could grow far beyond their own size are bounded (docs/compatibility.md). */
describe.each(dialects)('bulk and batch evaluations are bounded on %s', (dialect) => {
  let test: TestApp;
  let api: Api;

  beforeAll(async () => {
    test = await startTestApp(dialect);
    api = new Api(test.app);
    await api.flag('default', 'big');
    await api.variant('default', 'big', 'v', JSON.stringify({ padding: 'x'.repeat(10_000) }));
    await api.flag('default', 'other', 'BOOLEAN_FLAG_TYPE');
  });
  afterAll(() => test.close());

  const post = (url: string, payload: unknown) => test.app.inject({ method: 'POST', url, payload: payload as object });

  it('OFREP bulk answers each named flag once', async () => {
    const flags = [...Array(5000).fill('big'), 'other', ' big ', 'other'].join(',');
    const answer = await post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'e', flags } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().flags.map((flag: { key: string }) => flag.key)).toEqual(['big', 'other']);
  });

  it(`OFREP bulk refuses more than ${MAX_BULK_FLAGS} distinct flags with a 400 naming the limit`, async () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `flag-${i}`).join(',');
    const most = await post('/ofrep/v1/evaluate/flags', { context: { flags: keys(MAX_BULK_FLAGS) } });
    expect(most.statusCode).toBe(200);
    expect(most.json().flags).toHaveLength(MAX_BULK_FLAGS);
    const over = await post('/ofrep/v1/evaluate/flags', { context: { flags: keys(MAX_BULK_FLAGS + 1) } });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      errorCode: 'INVALID_CONTEXT',
      errorDetails: `context.flags names more than ${MAX_BULK_FLAGS} flags`,
    });
    expect(over.headers.etag).toBeUndefined();
  });

  it(`a batch holds at most ${MAX_BATCH_ITEMS} items, on /evaluate/v1/batch and the legacy batch-evaluate`, async () => {
    const items = (n: number) => Array.from({ length: n }, () => ({ flagKey: 'other', entityId: 'e' }));
    const most = await post('/evaluate/v1/batch', { requests: items(MAX_BATCH_ITEMS) });
    expect(most.statusCode).toBe(200);
    expect(most.json().responses).toHaveLength(MAX_BATCH_ITEMS);
    const refusal = {
      code: 3,
      message: `invalid field requests: must hold at most ${MAX_BATCH_ITEMS} items`,
      details: [],
    };
    const over = await post('/evaluate/v1/batch', { requests: items(MAX_BATCH_ITEMS + 1) });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual(refusal);
    const legacy = await post('/api/v1/batch-evaluate', {
      requests: items(MAX_BATCH_ITEMS + 1),
      exclude_not_found: true,
    });
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json()).toEqual(refusal);
  });

  it(`a batch names at most ${MAX_BATCH_NAMESPACES} namespaces, each loaded once`, async () => {
    const items = (n: number) =>
      Array.from({ length: 3 * n }, (_, i) => ({ namespaceKey: `missing-${i % n}`, flagKey: 'f', entityId: 'e' }));
    const most = await post('/evaluate/v1/batch', { requests: items(MAX_BATCH_NAMESPACES) });
    expect(most.statusCode).toBe(200);
    expect(most.json().responses[0].type).toBe('ERROR_EVALUATION_RESPONSE_TYPE');
    const over = await post('/evaluate/v1/batch', { requests: items(MAX_BATCH_NAMESPACES + 1) });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(`invalid field requests: must name at most ${MAX_BATCH_NAMESPACES} namespaces`);
  });
});
