import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAuthSettings } from '../../../server/auth/settings.js';
import { openDatabase } from '../../../server/db/index.js';
import { selfSignedCertificate } from '../../support/tls.js';
import { startGrpc } from '../grpc/client.js';
import { dialects } from '../support.js';
import { asToken, MANAGEMENT_PROBE, startAuthApp, type AuthTestApp } from './helpers.js';

// A cluster's issuer of our own on loopback: Kubernetes serves its OIDC discovery document and keys over TLS
// under its own CA, to callers that present a service-account token, and names an issuer that differs from the
// address it is reached at.
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const ENSIGN_SA_TOKEN = 'ensign-service-account-token';

const clusterKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });

interface Cluster {
  server: Server;
  url: string;
  certFile: string;
  /** The Authorization headers the issuer received. */
  credentials: string[];
}

async function startCluster(dir: string): Promise<Cluster> {
  const { certFile, keyFile } = selfSignedCertificate(dir);
  const credentials: string[] = [];
  const jwk = { ...clusterKey.publicKey.export({ format: 'jwk' }), kid: 'cluster', alg: 'RS256', use: 'sig' };
  const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (request, response) => {
    credentials.push(String(request.headers.authorization));
    if (request.headers.authorization !== `Bearer ${ENSIGN_SA_TOKEN}`) {
      response.statusCode = 401;
      return response.end();
    }
    const { port } = server.address() as AddressInfo;
    response.setHeader('content-type', 'application/json');
    if (request.url === '/.well-known/openid-configuration') {
      return response.end(JSON.stringify({ issuer: ISSUER, jwks_uri: `https://127.0.0.1:${port}/openid/v1/jwks` }));
    }
    if (request.url === '/openid/v1/jwks') return response.end(JSON.stringify({ keys: [jwk] }));
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `https://127.0.0.1:${port}`, certFile, credentials };
}

const now = () => Math.floor(Date.now() / 1000);

async function storedAuthentications(t: AuthTestApp): Promise<number> {
  const database = await openDatabase(t.database.url, { migrate: false });
  try {
    const rows = await database.db.selectFrom('authentications').select('id').execute();
    return rows.length;
  } finally {
    await database.close();
  }
}

function serviceAccountToken(
  claims: Record<string, unknown> = {},
  { key = clusterKey.privateKey, expiresAt = now() + 3600 } = {},
) {
  return new SignJWT({
    iss: ISSUER,
    aud: [ISSUER],
    sub: 'system:serviceaccount:shop:checkout',
    exp: expiresAt,
    iat: now(),
    'kubernetes.io': {
      namespace: 'shop',
      pod: { name: 'checkout-7d9f', uid: 'pod-uid-1' },
      serviceaccount: { name: 'checkout', uid: 'sa-uid-1' },
    },
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'cluster' })
    .sign(key);
}

describe.each(dialects)('Kubernetes service-account authentication on %s', (dialect) => {
  let dir: string;
  let cluster: Cluster;
  let t: AuthTestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ensign-k8s-'));
    cluster = await startCluster(dir);
    writeFileSync(join(dir, 'token'), `${ENSIGN_SA_TOKEN}\n`);
    t = await startAuthApp(dialect, {
      required: true,
      methods: {
        kubernetes: {
          enabled: true,
          discovery_url: cluster.url,
          ca_path: cluster.certFile,
          service_account_token_path: join(dir, 'token'),
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => cluster.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const verify = (body: unknown) =>
    t.app.inject({ method: 'POST', url: '/auth/v1/method/kubernetes/serviceaccount', payload: body as object });

  it('lists the method as enabled', async () => {
    const { methods } = (await t.app.inject({ url: '/auth/v1/method' })).json();
    expect(methods.find((method: { method: string }) => method.method === 'METHOD_KUBERNETES')).toEqual({
      method: 'METHOD_KUBERNETES',
      enabled: true,
      sessionCompatible: false,
    });
  });

  it("trades a pod's token for a client token that expires with it and names the workload", async () => {
    const expiresAt = now() + 1800;
    const response = await verify({ serviceAccountToken: await serviceAccountToken({}, { expiresAt }) });
    expect(response.statusCode).toBe(200);
    const { clientToken, authentication } = response.json();
    expect(authentication).toMatchObject({
      method: 'METHOD_KUBERNETES',
      expiresAt: new Date(expiresAt * 1000).toISOString().replace('.000Z', 'Z'),
      metadata: {
        'io.flipt.auth.k8s.namespace': 'shop',
        'io.flipt.auth.k8s.pod.name': 'checkout-7d9f',
        'io.flipt.auth.k8s.pod.uid': 'pod-uid-1',
        'io.flipt.auth.k8s.serviceaccount.name': 'checkout',
        'io.flipt.auth.k8s.serviceaccount.uid': 'sa-uid-1',
      },
    });
    expect((await asToken(t.app, clientToken, { method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(200);
    const self = await asToken(t.app, clientToken, { method: 'GET', url: '/auth/v1/self' });
    expect(self.json().id).toBe(authentication.id);
    // Every request to the issuer carried Ensign's own service-account token.
    expect(new Set(cluster.credentials)).toEqual(new Set([`Bearer ${ENSIGN_SA_TOKEN}`]));
  });

  it('takes the field in its snake_case spelling too', async () => {
    const response = await verify({ service_account_token: await serviceAccountToken() });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['an expired token', () => serviceAccountToken({}, { expiresAt: now() - 600 }), 'token has expired'],
    ['the wrong issuer', () => serviceAccountToken({ iss: 'https://evil.example' }), 'unexpected iss'],
    ['the wrong audience', () => serviceAccountToken({ aud: ['vault'] }), 'unexpected aud'],
    ['a signature by another key', () => serviceAccountToken({}, { key: strangerKey.privateKey }), 'invalid signature'],
  ])('refuses %s with 401 and creates nothing', async (_label, token, reason) => {
    const before = await storedAuthentications(t);
    const response = await verify({ serviceAccountToken: await token() });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 16 });
    expect(response.json().message).toContain(reason);
    expect(await storedAuthentications(t)).toBe(before);
  });

  it('answers the same on gRPC', async () => {
    const grpc = await startGrpc(t);
    try {
      const answer = await grpc.client.call(
        'flipt.auth.AuthenticationMethodKubernetesService',
        'VerifyServiceAccount',
        { serviceAccountToken: await serviceAccountToken() },
      );
      expect(answer.authentication.method).toBe('METHOD_KUBERNETES');
      expect(answer.authentication.metadata['io.flipt.auth.k8s.pod.name']).toBe('checkout-7d9f');
      const refused = grpc.client.call('flipt.auth.AuthenticationMethodKubernetesService', 'VerifyServiceAccount', {
        serviceAccountToken: await serviceAccountToken({ aud: ['vault'] }),
      });
      await expect(refused).rejects.toMatchObject({ code: 16 });
    } finally {
      await grpc.close();
    }
  });

  it('refuses a missing token with 400', async () => {
    const response = await verify({});
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('invalid field serviceAccountToken: must not be empty');
  });
});

describe('Kubernetes authentication trusts only the configured CA', () => {
  it("refuses tokens when the issuer's certificate is not signed by ca_path, and says why", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ensign-k8s-'));
    const cluster = await startCluster(dir);
    const otherCa = selfSignedCertificate(mkdtempSync(join(tmpdir(), 'ensign-k8s-ca-')));
    writeFileSync(join(dir, 'token'), ENSIGN_SA_TOKEN);
    const t = await startAuthApp('sqlite', {
      methods: {
        kubernetes: {
          enabled: true,
          discovery_url: cluster.url,
          ca_path: otherCa.certFile,
          service_account_token_path: join(dir, 'token'),
        },
      },
    });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/method/kubernetes/serviceaccount',
        payload: { serviceAccountToken: await serviceAccountToken() },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toMatch(/^verifying service account: cannot reach the cluster's issuer: /);
      expect(cluster.credentials).toEqual([]);
    } finally {
      await t.close();
      await new Promise((resolve) => cluster.server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Kubernetes settings', () => {
  it("uses Flipt's defaults and reads the CA at start-up, naming the key when it cannot", () => {
    expect(() => resolveAuthSettings({ methods: { kubernetes: { enabled: true } } })).toThrow(
      'authentication.methods.kubernetes.ca_path: cannot read /var/run/secrets/kubernetes.io/serviceaccount/ca.crt: ENOENT',
    );
    const settings = resolveAuthSettings({ methods: { kubernetes: { enabled: false } } }).kubernetes;
    expect(settings).toEqual({
      enabled: false,
      discoveryUrl: 'https://kubernetes.default.svc.cluster.local',
      caPem: undefined,
      serviceAccountTokenPath: '/var/run/secrets/kubernetes.io/serviceaccount/token',
      audiences: [],
    });
  });

  it('cleans up expired Kubernetes authentications hourly with 30 minutes of grace when enabled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ensign-k8s-'));
    const { certFile } = selfSignedCertificate(dir);
    const settings = resolveAuthSettings({ methods: { kubernetes: { enabled: true, ca_path: certFile } } });
    expect(settings.cleanup).toContainEqual({ method: 'METHOD_KUBERNETES', intervalMs: 3_600_000, graceMs: 1_800_000 });
    rmSync(dir, { recursive: true, force: true });
  });
});
