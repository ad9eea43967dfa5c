import { connect } from 'node:http2';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../evaluation/api.js';
import { startTestApp, type TestApp } from '../support.js';
import { GrpcClient, startGrpc, toRestJson } from './client.js';

/**
 * The gRPC port's front (server/grpc/front.ts): evaluation RPCs answered from node:http2, every other
 * stream passed on to grpc-js. Calls the front cannot answer itself (a compressed message) reach
 * grpc-js and get the same answer; streams, reflection, malformed and cancelled calls behave.
 */

const EVALUATION = 'flipt.evaluation.EvaluationService';
const REFLECTION_PROTO = join(
  import.meta.dirname,
  '../../../node_modules/@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto',
);

describe('the gRPC front', () => {
  let t: TestApp;
  let g: Awaited<ReturnType<typeof startGrpc>>;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const api = new Api(t.app);
    await api.flag('default', 'colour');
    const blue = await api.variant('default', 'colour', 'blue');
    await api.segment('default', 'everyone', [['STRING_COMPARISON_TYPE', 'plan', 'neq', 'none']]);
    await api.rule('default', 'colour', ['everyone'], [[blue.id, 100]], 1);
    await api.flag('default', 'switch', 'BOOLEAN_FLAG_TYPE', true);
    g = await startGrpc(t);
  });
  afterAll(async () => {
    await g?.close();
    await t?.close();
  });

  it('answers a compressed call through grpc-js as the front answers a plain one', async () => {
    const compressed = new GrpcClient(g.server.port, { 'grpc.default_compression_algorithm': 2 });
    try {
      const request = { requestId: 'r', flagKey: 'colour', entityId: 'e', context: { plan: 'pro' } };
      for (const method of ['Variant', 'Boolean']) {
        const flagKey = method === 'Variant' ? 'colour' : 'switch';
        const plain = await g.client.call(EVALUATION, method, { ...request, flagKey });
        const viaGrpcJs = await compressed.call(EVALUATION, method, { ...request, flagKey });
        const strip = (answer: object) => ({
          ...(toRestJson(answer) as object),
          timestamp: 0,
          requestDurationMillis: 0,
        });
        expect(strip(viaGrpcJs)).toEqual(strip(plain));
      }
      await expect(compressed.call(EVALUATION, 'Variant', { flagKey: 'nope', entityId: 'e' })).rejects.toMatchObject({
        code: grpc.status.NOT_FOUND,
        details: 'flag "default/nope" not found',
      });
    } finally {
      compressed.close();
    }
  });

  it('passes server streams and reflection on to grpc-js', async () => {
    const health = protoLoader.loadSync('grpc/health/v1/health.proto', {
      enums: String,
      includeDirs: [join(import.meta.dirname, '../../../proto')],
    });
    const Health = grpc.makeGenericClientConstructor(
      health['grpc.health.v1.Health'] as grpc.ServiceDefinition,
      'grpc.health.v1.Health',
    );
    const client = new Health(`127.0.0.1:${g.server.port}`, grpc.credentials.createInsecure()) as any;
    const statuses: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      const stream = client.Watch({ service: 'flipt.Flipt' });
      stream.on('data', (message: unknown) => statuses.push(message));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    expect(statuses).toEqual([{ status: 'SERVING' }]);
    client.close();

    const reflection = protoLoader.loadSync(REFLECTION_PROTO, { keepCase: true });
    const Reflection = grpc.makeGenericClientConstructor(
      reflection['grpc.reflection.v1.ServerReflection'] as grpc.ServiceDefinition,
      'grpc.reflection.v1.ServerReflection',
    );
    const reflector = new Reflection(`127.0.0.1:${g.server.port}`, grpc.credentials.createInsecure()) as any;
    const services = await new Promise<string[]>((resolve, reject) => {
      const stream = reflector.ServerReflectionInfo();
      stream.on('data', (message: any) => {
        resolve(message.list_services_response.service.map((s: { name: string }) => s.name));
        stream.end();
      });
      stream.on('error', reject);
      stream.write({ list_services: '' });
    });
    reflector.close();
    expect(services).toEqual(
      expect.arrayContaining([
        'flipt.Flipt',
        EVALUATION,
        'flipt.evaluation.DataService',
        'flipt.ofrep.OFREPService',
        'flipt.meta.MetadataService',
        'grpc.health.v1.Health',
      ]),
    );
  });

  it('answers a malformed message with a status and keeps serving the connection', async () => {
    const session = connect(`http://127.0.0.1:${g.server.port}`);
    try {
      const call = (body: Buffer) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const stream = session.request({
            ':method': 'POST',
            ':path': `/${EVALUATION}/Variant`,
            'content-type': 'application/grpc',
            te: 'trailers',
          });
          let status: Record<string, unknown> = {};
          stream.on('response', (headers) => {
            if (headers['grpc-status'] !== undefined) status = headers;
          });
          stream.on('trailers', (trailers) => {
            status = trailers;
          });
          stream.on('data', () => {});
          stream.on('end', () => resolve(status));
          stream.on('error', reject);
          stream.end(body);
        });
      expect(await call(Buffer.from([0, 0, 0, 0, 9, 1]))).toMatchObject({ 'grpc-status': '13' });
      expect(await call(Buffer.from([1, 0, 0, 0, 0]))).toMatchObject({ 'grpc-status': '13' });
      // A flag key with a character outside printable ASCII comes back percent-encoded in grpc-message.
      const message = Buffer.from([0x1a, 3, 0x66, 0xc3, 0xa9]); // field 3 (flag_key) "fé"
      const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, message.length]), message]);
      expect(await call(frame)).toMatchObject({
        'grpc-status': '5',
        'grpc-message': 'flag "default/f%C3%A9" not found',
      });
    } finally {
      session.close();
    }
  });
});
