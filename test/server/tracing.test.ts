import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver } from '../support/otlp.js';
import { dialects, startTestApp, type TestApp } from './support.js';
import { Api } from './evaluation/api.js';

describe.each(dialects)('tracing to an OTLP/HTTP receiver on %s', (dialect) => {
  let receiver: OtlpReceiver;
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    t = await startTestApp(dialect, (config) => {
      config.tracing = {
        enabled: true,
        endpoint: `${receiver.endpoint}/v1/traces`,
        headers: { 'x-collector-key': 'k1' },
        samplingRatio: 1,
      };
    });
    const api = new Api(t.app);
    await api.flag('default', 'switch', 'BOOLEAN_FLAG_TYPE', true);
    await api.segment('default', 'staff', [['STRING_COMPARISON_TYPE', 'team', 'eq', 'core']]);
    await api.segmentRollout('default', 'switch', 1, ['staff'], true);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('sends a span per request, with the evaluation and the database queries inside it', async () => {
    const answer = await fetch(`${base}/evaluate/v1/boolean`, {
      method: 'POST',
      body: JSON.stringify({ flagKey: 'switch', entityId: 'e1', context: { team: 'core' } }),
    });
    expect(answer.status).toBe(200);
    await expect.poll(() => receiver.spans.some((span) => span.name === 'evaluation'), { timeout: 10_000 }).toBe(true);
    const request = receiver.spans.find((span) => span.name === 'POST /evaluate/v1/boolean')!;
    expect(request).toMatchObject({
      service: 'ensign',
      attributes: { 'http.route': '/evaluate/v1/boolean', 'http.response.status_code': 200 },
    });
    const evaluation = receiver.spans.find((span) => span.name === 'evaluation')!;
    expect(evaluation).toMatchObject({
      traceId: request.traceId,
      parentSpanId: request.spanId,
      attributes: {
        'flipt.flag': 'switch',
        'flipt.namespace': 'default',
        'flipt.value': 'true',
        // The segments that matched, as Flipt v1.61 names them on its span.
        'flipt.segments': ['staff'],
      },
    });
    // The namespace's snapshot was loaded for this request: its queries are in the same trace.
    const queries = receiver.spans.filter((span) => span.name === 'db.query' && span.traceId === request.traceId);
    expect(queries.length).toBeGreaterThan(0);
    expect(queries[0].attributes['db.system']).toBe(dialect === 'postgres' ? 'postgresql' : 'sqlite');
    expect(receiver.headers[0]['x-collector-key']).toBe('k1');
  });
});
