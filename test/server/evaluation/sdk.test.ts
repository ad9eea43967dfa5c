import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FliptClient } from '@flipt-io/flipt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

/** Flipt's server SDK (@flipt-io/flipt 1.5.0) over HTTP against the running server: it sends no Content-Type. */
describe('@flipt-io/flipt SDK against the server', () => {
  let test: TestApp;
  let client: FliptClient;

  beforeAll(async () => {
    test = await startTestApp('sqlite');
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    client = new FliptClient({ url: `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}` });
    const api = new Api(test.app);
    await api.flag('default', 'flag_001');
    const a = await api.variant('default', 'flag_001', 'variant_001');
    const b = await api.variant('default', 'flag_001', 'variant_002', '{"color":"blue"}');
    await api.segment('default', 'everyone', []);
    await api.rule(
      'default',
      'flag_001',
      ['everyone'],
      [
        [a.id, 50],
        [b.id, 50],
      ],
      1,
    );
    await api.flag('default', 'flag_boolean', 'BOOLEAN_FLAG_TYPE', false);
    await api.threshold('default', 'flag_boolean', 1, 50, true);
  });
  afterAll(() => test.close());

  it('variant', async () => {
    const response = await client.evaluation.variant({
      namespaceKey: 'default',
      flagKey: 'flag_001',
      entityId: 'some-fixed-entity-id',
      context: {},
    });
    expect(response).toMatchObject({
      match: true,
      reason: 'MATCH_EVALUATION_REASON',
      variantKey: 'variant_002',
      variantAttachment: '{"color":"blue"}',
      segmentKeys: ['everyone'],
    });
  });

  it('boolean', async () => {
    const fixed = await client.evaluation.boolean({
      namespaceKey: 'default',
      flagKey: 'flag_boolean',
      entityId: 'fixed',
      context: {},
    });
    expect(fixed).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON', flagKey: 'flag_boolean' });
    const hello = await client.evaluation.boolean({
      namespaceKey: 'default',
      flagKey: 'flag_boolean',
      entityId: 'hello',
      context: {},
    });
    expect(hello).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
  });

  it('batch, with request_id and a missing flag', async () => {
    const response = await client.evaluation.batch({
      request_id: 'sdk-batch',
      requests: [
        { namespaceKey: 'default', flagKey: 'flag_001', entityId: '1', context: {} },
        { namespaceKey: 'default', flagKey: 'flag_boolean', entityId: 'fixed', context: {} },
        { namespaceKey: 'default', flagKey: 'nope', entityId: '1', context: {} },
      ],
    });
    expect(response.requestId).toBe('sdk-batch');
    expect(response.responses.map((r) => r.type)).toEqual([
      'VARIANT_EVALUATION_RESPONSE_TYPE',
      'BOOLEAN_EVALUATION_RESPONSE_TYPE',
      'ERROR_EVALUATION_RESPONSE_TYPE',
    ]);
    expect(response.responses[2].errorResponse).toEqual({
      flagKey: 'nope',
      namespaceKey: 'default',
      reason: 'NOT_FOUND_ERROR_EVALUATION_REASON',
    });
  });

  it('accepts a body sent with no Content-Type header at all', async () => {
    const body = JSON.stringify({ request_id: 'raw', requests: [{ flagKey: 'flag_boolean', entityId: 'fixed' }] });
    const { port } = test.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/evaluate/v1/batch',
          headers: { 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body: text }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      requestId: 'raw',
      responses: [{ booleanResponse: { enabled: true } }],
    });
  });

  it('throws the server message on errors', async () => {
    await expect(
      client.evaluation.variant({ namespaceKey: 'default', flagKey: 'nope', entityId: '1', context: {} }),
    ).rejects.toThrow('flag "default/nope" not found');
  });
});
