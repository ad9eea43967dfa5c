import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrpcServer } from '../../../server/grpc/server.js';
import { Scrape } from '../../support/prometheus.js';
import { selfSignedCertificate } from '../../support/tls.js';
import { Api } from '../evaluation/api.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { restWithInstants, startGrpc, toRestJson } from './client.js';

/**
 * What guards a gRPC call as it guards the REST route (#35 item 3): the `authorization` metadata
 * (`Bearer <token>`), namespace-scoped tokens, rate limits, the `grpc_server_*` metrics, and TLS when
 * `server.protocol` is https. Each call's outcome is compared with the REST route's for the same request.
 */

const BOOTSTRAP = 'grpc-bootstrap-token';
const FLIPT = 'flipt.Flipt';
const EVALUATION = 'flipt.evaluation.EvaluationService';

type Outcome = { code: number; message: string } | { answer: unknown };

describe.each(dialects)('gRPC authentication and namespace scope (%s)', (dialect) => {
  let t: TestApp;
  let base: string;
  let g: Awaited<ReturnType<typeof startGrpc>>;
  let scoped: string;

  beforeAll(async () => {
    t = await startTestApp(dialect, (config) => {
      config.authentication = {
        required: true,
        methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
      };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const auth = { authorization: `Bearer ${BOOTSTRAP}` };
    for (const namespace of ['team-a', 'team-b']) {
      await rest('POST', '/api/v1/namespaces', { key: namespace, name: namespace }, auth);
      await rest('POST', `/api/v1/namespaces/${namespace}/flags`, { key: 'f', name: 'F', enabled: true }, auth);
      await rest('POST', `/api/v1/namespaces/${namespace}/flags/f/variants`, { key: 'on' }, auth);
    }
    const created = await rest('POST', '/auth/v1/method/token', { name: 'a', namespaceKey: 'team-a' }, auth);
    scoped = (created as { answer: { clientToken: string } }).answer.clientToken;
    g = await startGrpc(t);
  });
  afterAll(async () => {
    await g?.close();
    await t?.close();
  });

  async function rest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status !== 200) return { code: json.code, message: json.message, status: response.status };
    return { answer: json };
  }

  async function overGrpc(rpc: string, request: object, metadata: Record<string, string>): Promise<Outcome> {
    const [service, method] = rpc.split('/');
    try {
      return { answer: toRestJson(await g.client.call(service, method, request, metadata)) };
    } catch (error) {
      const { code, details } = error as { code: number; details: string };
      return { code, message: details };
    }
  }

  /** The same request both ways, with the same credentials: the same outcome. */
  async function both(
    rpc: string,
    request: object,
    route: [method: string, path: string, body?: unknown],
    headers: Record<string, string>,
  ) {
    const overRest = await rest(route[0], route[1], route[2], headers);
    const answer = await overGrpc(rpc, request, headers);
    const plain = (o: Outcome) =>
      'answer' in o ? JSON.stringify(withoutMeta(o.answer)) : JSON.stringify({ code: o.code, message: o.message });
    const restView = 'answer' in overRest ? { answer: restWithInstants(overRest.answer) } : overRest;
    expect(plain(answer), rpc).toBe(plain(restView as Outcome));
    return answer;
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('answers Unauthenticated without a token or with a wrong one, and serves a valid bearer token', async () => {
    for (const headers of [{}, bearer('wrong'), { authorization: 'Basic xyz' }]) {
      const list = await both(
        FLIPT + '/ListFlags',
        { namespaceKey: 'team-a' },
        ['GET', '/api/v1/namespaces/team-a/flags'],
        headers,
      );
      expect(list).toEqual({ code: grpc.status.UNAUTHENTICATED, message: 'request was not authenticated' });
      const evaluation = { namespaceKey: 'team-a', flagKey: 'f', entityId: 'e', requestId: 'r' };
      const variant = await both(
        EVALUATION + '/Variant',
        evaluation,
        ['POST', '/evaluate/v1/variant', evaluation],
        headers,
      );
      expect(variant).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    }
    const list = await both(
      FLIPT + '/ListFlags',
      { namespaceKey: 'team-a' },
      ['GET', '/api/v1/namespaces/team-a/flags'],
      bearer(BOOTSTRAP),
    );
    expect(list).toMatchObject({ answer: { totalCount: 1 } });
    const self = await both(
      'flipt.auth.AuthenticationService/GetAuthenticationSelf',
      {},
      ['GET', '/auth/v1/self'],
      bearer(BOOTSTRAP),
    );
    expect(self).toMatchObject({ answer: { method: 'METHOD_TOKEN' } });
    // The public method list needs no token.
    await both('flipt.auth.PublicAuthenticationService/ListAuthenticationMethods', {}, ['GET', '/auth/v1/method'], {});
  });

  it('keeps a namespace-scoped token to its namespace over gRPC too', async () => {
    const own = bearer(scoped);
    const denied = { code: grpc.status.UNAUTHENTICATED, message: 'request was not authenticated' };
    expect(
      await both(
        FLIPT + '/GetFlag',
        { namespaceKey: 'team-a', key: 'f' },
        ['GET', '/api/v1/namespaces/team-a/flags/f'],
        own,
      ),
    ).toMatchObject({ answer: { key: 'f', namespaceKey: 'team-a' } });
    const elsewhere: [string, object, [string, string, unknown?], Record<string, string>?][] = [
      [FLIPT + '/GetFlag', { namespaceKey: 'team-b', key: 'f' }, ['GET', '/api/v1/namespaces/team-b/flags/f']],
      [FLIPT + '/GetFlag', { key: 'f' }, ['GET', '/api/v1/flags/f']],
      [FLIPT + '/ListFlags', { namespaceKey: 'team-b' }, ['GET', '/api/v1/namespaces/team-b/flags']],
      [FLIPT + '/ListNamespaces', {}, ['GET', '/api/v1/namespaces']],
      [FLIPT + '/GetNamespace', { key: 'team-a' }, ['GET', '/api/v1/namespaces/team-a']],
      [
        FLIPT + '/CreateFlag',
        { namespaceKey: 'team-b', key: 'g', name: 'G' },
        ['POST', '/api/v1/namespaces/team-b/flags', { key: 'g', name: 'G' }],
      ],
      [
        FLIPT + '/Evaluate',
        { namespaceKey: 'team-b', flagKey: 'f', entityId: 'e' },
        ['POST', '/api/v1/namespaces/team-b/evaluate', { flagKey: 'f', entityId: 'e' }],
      ],
      [
        FLIPT + '/BatchEvaluate',
        { namespaceKey: 'team-a', requests: [{ namespaceKey: 'team-b', flagKey: 'f', entityId: 'e' }] },
        [
          'POST',
          '/api/v1/namespaces/team-a/batch-evaluate',
          { requests: [{ namespaceKey: 'team-b', flagKey: 'f', entityId: 'e' }] },
        ],
      ],
      [
        EVALUATION + '/Variant',
        { namespaceKey: 'team-b', flagKey: 'f', entityId: 'e' },
        ['POST', '/evaluate/v1/variant', { namespaceKey: 'team-b', flagKey: 'f', entityId: 'e' }],
      ],
      [
        EVALUATION + '/Boolean',
        { flagKey: 'f', entityId: 'e' },
        ['POST', '/evaluate/v1/boolean', { flagKey: 'f', entityId: 'e' }],
      ],
      [
        EVALUATION + '/Batch',
        {
          requests: [
            { namespaceKey: 'team-a', flagKey: 'f', entityId: 'e' },
            { namespaceKey: 'team-b', flagKey: 'f', entityId: 'e' },
          ],
        },
        [
          'POST',
          '/evaluate/v1/batch',
          {
            requests: [
              { namespaceKey: 'team-a', flagKey: 'f', entityId: 'e' },
              { namespaceKey: 'team-b', flagKey: 'f', entityId: 'e' },
            ],
          },
        ],
      ],
      [
        'flipt.evaluation.DataService/EvaluationSnapshotNamespace',
        { key: 'team-b' },
        ['GET', '/internal/v1/evaluation/snapshot/namespace/team-b'],
      ],
      [
        'flipt.ofrep.OFREPService/EvaluateFlag',
        { key: 'f', context: { targetingKey: 'e' } },
        ['POST', '/ofrep/v1/evaluate/flags/f', { context: { targetingKey: 'e' } }],
        { 'x-flipt-namespace': 'team-b' },
      ],
      ['flipt.auth.AuthenticationService/GetAuthenticationSelf', {}, ['GET', '/auth/v1/self']],
      ['flipt.auth.AuthenticationService/ListAuthentications', {}, ['GET', '/auth/v1/tokens']],
    ];
    for (const [rpc, request, route, headers] of elsewhere) {
      expect(await both(rpc, request, route, { ...own, ...headers }), rpc).toEqual(denied);
    }
    // Its own namespace's evaluations and snapshot are served.
    const evaluation = { namespaceKey: 'team-a', flagKey: 'f', entityId: 'e', requestId: 'r' };
    expect(
      await both(EVALUATION + '/Variant', evaluation, ['POST', '/evaluate/v1/variant', evaluation], own),
    ).toMatchObject({
      answer: { flagKey: 'f' },
    });
    expect(
      await both(
        'flipt.evaluation.DataService/EvaluationSnapshotNamespace',
        { key: 'team-a' },
        ['GET', '/internal/v1/evaluation/snapshot/namespace/team-a'],
        own,
      ),
    ).toMatchObject({ answer: { namespace: { key: 'team-a' } } });
  });
});

describe('gRPC with JWT authentication', () => {
  let t: TestApp;
  let dir: string;
  let g: Awaited<ReturnType<typeof startGrpc>>;
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwt = (signer: KeyObject) => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const input = `${encode({ alg: 'ES256', typ: 'JWT' })}.${encode({ sub: 'svc', iat: now, exp: now + 600 })}`;
    const signature = sign('sha256', Buffer.from(input), { key: signer, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ensign-grpc-jwt-'));
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, key.publicKey.export({ format: 'pem', type: 'spki' }));
    t = await startTestApp('sqlite', (config) => {
      config.authentication = { required: true, methods: { jwt: { enabled: true, public_key_file: keyFile } } };
    });
    g = await startGrpc(t);
  });
  afterAll(async () => {
    await g?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts `JWT <jwt>` metadata signed by the configured key, and refuses another signer', async () => {
    const answer = await g.client.call(FLIPT, 'ListFlags', {}, { authorization: `JWT ${jwt(key.privateKey)}` });
    expect(answer).toMatchObject({ totalCount: 0 });
    for (const authorization of [`JWT ${jwt(stranger.privateKey)}`, `Bearer ${jwt(key.privateKey)}`]) {
      await expect(g.client.call(FLIPT, 'ListFlags', {}, { authorization })).rejects.toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
      });
    }
    // The front's evaluation RPCs check it too.
    await expect(
      g.client.call(
        EVALUATION,
        'Variant',
        { flagKey: 'f', entityId: 'e' },
        { authorization: `JWT ${jwt(stranger.privateKey)}` },
      ),
    ).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(
      g.client.call(
        EVALUATION,
        'Variant',
        { flagKey: 'f', entityId: 'e' },
        { authorization: `JWT ${jwt(key.privateKey)}` },
      ),
    ).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });
});

describe('gRPC rate limits and metrics', () => {
  let t: TestApp;
  let base: string;
  let g: Awaited<ReturnType<typeof startGrpc>>;

  beforeAll(async () => {
    t = await startTestApp('sqlite', (config) => {
      config.rateLimits = { ...config.rateLimits, windowMs: 60_000, evaluation: 5 };
    });
    const api = new Api(t.app);
    await api.flag('default', 'colour');
    await api.variant('default', 'colour', 'blue');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    g = await startGrpc(t);
  });
  afterAll(async () => {
    await g?.close();
    await t?.close();
  });

  it('limits evaluation calls per client address as REST does (ResourceExhausted for 429) and counts every call', async () => {
    const labels = { grpc_service: EVALUATION, grpc_method: 'Variant', grpc_type: 'unary' };
    const before = await Scrape.of(`${base}/metrics`);
    const request = { flagKey: 'colour', entityId: 'e' };
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) {
      try {
        await g.client.call(EVALUATION, 'Variant', request);
        codes.push(0);
      } catch (error) {
        codes.push((error as grpc.ServiceError).code);
        expect((error as grpc.ServiceError).details).toMatch(/^too many requests from this address: at most 5 per/);
      }
    }
    expect(codes).toEqual([0, 0, 0, 0, 0, grpc.status.RESOURCE_EXHAUSTED, grpc.status.RESOURCE_EXHAUSTED]);
    // REST requests are counted apart from gRPC calls (each API has the limit): the sixth is a 429 with code 8.
    const statuses: number[] = [];
    let last: { code?: number } = {};
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${base}/evaluate/v1/variant`, { method: 'POST', body: JSON.stringify(request) });
      statuses.push(response.status);
      last = await response.json();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    // Calls that are not evaluations are not limited.
    await expect(g.client.call(FLIPT, 'GetFlag', { key: 'nope' })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
    });

    const after = await Scrape.of(`${base}/metrics`);
    const delta = (name: string, extra: Record<string, string> = {}) =>
      after.value(name, { ...labels, ...extra }) - before.value(name, { ...labels, ...extra });
    expect(delta('grpc_server_started_total')).toBe(7);
    expect(delta('grpc_server_handled_total', { grpc_code: 'OK' })).toBe(5);
    // go-grpc-prometheus's code names, as Flipt's metrics carry them.
    expect(delta('grpc_server_handled_total', { grpc_code: 'ResourceExhausted' })).toBe(2);
    expect(
      after.value('grpc_server_handled_total', { grpc_service: FLIPT, grpc_method: 'GetFlag', grpc_code: 'NotFound' }),
    ).toBe(1);
  });
});

describe('gRPC over TLS', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ensign-grpc-tls-'));
    const { certFile, keyFile } = selfSignedCertificate(dir);
    t = await startTestApp('sqlite', (config) => {
      config.server.tls = { cert: readFileSync(certFile), key: readFileSync(keyFile) };
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves gRPC with the server certificate when server.protocol is https, and no plaintext', async () => {
    const server = await startGrpcServer(t.app.ensign, {
      host: '127.0.0.1',
      port: 0,
      protoDir: join(import.meta.dirname, '../../../proto'),
      log: { info: () => {}, error: () => {} },
    });
    const definitions = protoLoader.loadSync('flipt/meta/meta.proto', {
      includeDirs: [join(import.meta.dirname, '../../../proto')],
    });
    const Meta = grpc.makeGenericClientConstructor(
      definitions['flipt.meta.MetadataService'] as grpc.ServiceDefinition,
      'flipt.meta.MetadataService',
    );
    const getInfo = (client: grpc.Client) =>
      new Promise<{ data: Buffer }>((resolve, reject) =>
        (client as unknown as Record<string, (...args: unknown[]) => void>).GetInfo(
          {},
          { deadline: Date.now() + 5000 },
          (error: Error | null, answer: { data: Buffer }) => (error ? reject(error) : resolve(answer)),
        ),
      );
    const secure = new Meta(`localhost:${server.port}`, grpc.credentials.createSsl(t.config.server.tls!.cert));
    const plain = new Meta(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    try {
      const info = JSON.parse(Buffer.from((await getInfo(secure)).data).toString());
      expect(info).toHaveProperty('version');
      await expect(getInfo(plain)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    } finally {
      secure.close();
      plain.close();
      await server.close(1000);
    }
  });
});

function withoutMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMeta);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['requestDurationMillis', 'timestamp'].includes(key))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, item]) => [key, withoutMeta(item)]),
  );
}
