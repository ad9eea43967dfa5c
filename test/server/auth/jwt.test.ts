import { constants, createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialects } from '../support.js';
import { JWKS_COOLDOWN_MS, JWKS_MAX_AGE_MS, jwksKeySource, JwtError, verifyJwt } from '../../../server/auth/jwt.js';
import { MANAGEMENT_PROBE, startAuthApp, UNAUTHENTICATED, type AuthTestApp } from './helpers.js';

const ISSUER = 'https://issuer.example';
const AUDIENCE = 'ensign';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

const SIGNERS = {
  RS256: { hash: 'sha256', key: rsa.privateKey, ecdsa: false },
  ES256: { hash: 'sha256', key: ec.privateKey, ecdsa: true },
  EdDSA: { hash: null, key: ed.privateKey, ecdsa: false },
} as const;

function signJwt(
  alg: keyof typeof SIGNERS,
  kid: string,
  claims: Record<string, unknown>,
  key: KeyObject = SIGNERS[alg].key,
): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg, typ: 'JWT', kid })}.${encode(claims)}`;
  const signer = SIGNERS[alg];
  const signature = sign(signer.hash, Buffer.from(input), signer.ecdsa ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${input}.${signature.toString('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const goodClaims = () => ({
  iss: ISSUER,
  sub: 'service-account',
  aud: [AUDIENCE, 'other'],
  exp: now() + 600,
  iat: now(),
  'io.flipt.auth.role': 'admin',
  user: { email: 'ada@example.com', sub: 'ada', image: 'https://example.com/ada.png', name: 'Ada', role: 'editor' },
});

describe.each(dialects)('JWT authentication with a JWKS address on %s', (dialect) => {
  let jwks: Server;
  let t: AuthTestApp;
  beforeAll(async () => {
    const keys = [
      { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa', alg: 'RS256', use: 'sig' },
      { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec', alg: 'ES256', use: 'sig' },
      { ...ed.publicKey.export({ format: 'jwk' }), kid: 'ed', alg: 'EdDSA', use: 'sig' },
    ];
    jwks = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    t = await startAuthApp(dialect, {
      required: true,
      methods: {
        jwt: {
          enabled: true,
          jwks_url: `http://127.0.0.1:${port}/jwks.json`,
          validate_claims: { issuer: ISSUER, subject: 'service-account', audiences: [AUDIENCE] },
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  const withJwt = (token: string, url = MANAGEMENT_PROBE) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `JWT ${token}` } });

  it.each([
    ['RS256', 'rsa'],
    ['ES256', 'ec'],
    ['EdDSA', 'ed'],
  ] as const)('accepts a valid %s token', async (alg, kid) => {
    const response = await withJwt(signJwt(alg, kid, goodClaims()));
    expect(response.statusCode).toBe(200);
  });

  it('allows a minute of clock skew, and a token without exp for 150 s after it was issued', async () => {
    for (const claims of [
      { ...goodClaims(), exp: now() - 30 },
      { ...goodClaims(), exp: undefined, iat: now() - 100 },
    ]) {
      expect((await withJwt(signJwt('RS256', 'rsa', claims))).statusCode).toBe(200);
    }
  });

  it('reports the claims as metadata of a synthesised METHOD_JWT authentication', async () => {
    const response = await withJwt(signJwt('ES256', 'ec', goodClaims()), '/auth/v1/self');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: '',
      method: 'METHOD_JWT',
      metadata: {
        'io.flipt.auth.role': 'admin',
        'io.flipt.auth.jwt.issuer': ISSUER,
        'io.flipt.auth.jwt.email': 'ada@example.com',
        'io.flipt.auth.jwt.sub': 'ada',
        'io.flipt.auth.jwt.picture': 'https://example.com/ada.png',
        'io.flipt.auth.jwt.name': 'Ada',
        'io.flipt.auth.jwt.role': 'editor',
      },
    });
  });

  it.each([
    ['an expired token', () => signJwt('RS256', 'rsa', { ...goodClaims(), exp: now() - 120 })],
    ['a token not valid yet', () => signJwt('RS256', 'rsa', { ...goodClaims(), nbf: now() + 600 })],
    ['a token issued in the future', () => signJwt('RS256', 'rsa', { ...goodClaims(), iat: now() + 600 })],
    [
      'a token without iat, nbf or exp',
      () => signJwt('RS256', 'rsa', { ...goodClaims(), exp: undefined, iat: undefined }),
    ],
    [
      'a token without exp issued over 150 s ago',
      () => signJwt('RS256', 'rsa', { ...goodClaims(), exp: undefined, iat: now() - 300 }),
    ],
    ['the wrong subject', () => signJwt('RS256', 'rsa', { ...goodClaims(), sub: 'mallory' })],
    ['the wrong issuer', () => signJwt('RS256', 'rsa', { ...goodClaims(), iss: 'https://evil.example' })],
    ['the wrong audience', () => signJwt('RS256', 'rsa', { ...goodClaims(), aud: 'someone-else' })],
    ['a signature by another key', () => signJwt('RS256', 'rsa', goodClaims(), stranger.privateKey)],
    [
      'a tampered payload',
      () => {
        const [header, , signature] = signJwt('EdDSA', 'ed', goodClaims()).split('.');
        const payload = Buffer.from(JSON.stringify({ ...goodClaims(), 'io.flipt.auth.role': 'root' })).toString(
          'base64url',
        );
        return `${header}.${payload}.${signature}`;
      },
    ],
    ['an unknown key id', () => signJwt('RS256', 'nobody', goodClaims())],
    [
      'the "none" algorithm',
      () =>
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(goodClaims())).toString('base64url')}.`,
    ],
    ['garbage', () => 'not-a-jwt'],
  ])('refuses %s with 401', async (_name, token) => {
    const response = await withJwt(token());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHENTICATED);
  });

  it('does not accept a JWT sent as a bearer token', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: MANAGEMENT_PROBE,
      headers: { authorization: `Bearer ${signJwt('RS256', 'rsa', goodClaims())}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('lists the JWT method as enabled', async () => {
    const methods = (await t.app.inject({ method: 'GET', url: '/auth/v1/method' })).json().methods;
    expect(methods.find((m: { method: string }) => m.method === 'METHOD_JWT')).toEqual({
      method: 'METHOD_JWT',
      enabled: true,
      sessionCompatible: false,
    });
  });
});

describe.each(dialects)('JWT authentication with a public key file on %s', (dialect) => {
  let dir: string;
  let t: AuthTestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ensign-jwt-'));
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, ec.publicKey.export({ format: 'pem', type: 'spki' }));
    t = await startAuthApp(dialect, { required: true, methods: { jwt: { enabled: true, public_key_file: keyFile } } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts a token signed by the matching private key, with no issuer or audience checks configured', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: MANAGEMENT_PROBE,
      headers: { authorization: `JWT ${signJwt('ES256', 'any', { ...goodClaims(), iss: 'anyone', aud: 'anything' })}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a token signed by another key, and an RSA-signed token against the EC key', async () => {
    const otherEc = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (const token of [
      signJwt('ES256', 'any', goodClaims(), otherEc.privateKey),
      signJwt('RS256', 'any', goodClaims()),
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: MANAGEMENT_PROBE,
        headers: { authorization: `JWT ${token}` },
      });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('JWT authentication when the JWKS address cannot be reached', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    t = await startAuthApp('sqlite', {
      required: true,
      methods: { jwt: { enabled: true, jwks_url: `http://127.0.0.1:${port}/jwks.json` } },
    });
  });
  afterAll(() => t.close());

  it('refuses the token with 401 rather than failing', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: MANAGEMENT_PROBE,
      headers: { authorization: `JWT ${signJwt('RS256', 'rsa', goodClaims())}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHENTICATED);
  });
});

describe('JWT authentication against a hostile caller', () => {
  let fetches = 0;
  let answer: 'keys' | 'not json' = 'keys';
  let jwks: Server;
  let t: AuthTestApp;
  const keys = [
    { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa', use: 'sig' },
    { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec', use: 'sig' },
  ];
  beforeAll(async () => {
    jwks = createServer((_request, response) => {
      fetches++;
      if (answer === 'not json') return response.end('<html>maintenance</html>');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    t = await startAuthApp('sqlite', {
      required: true,
      methods: { jwt: { enabled: true, jwks_url: `http://127.0.0.1:${port}/jwks.json` } },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  const call = (token: string) =>
    t.app.inject({ method: 'GET', url: MANAGEMENT_PROBE, headers: { authorization: `JWT ${token}` } });
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('fetches the JWKS at most once per cooldown under a flood of unknown key ids', async () => {
    expect((await call(signJwt('RS256', 'rsa', goodClaims()))).statusCode).toBe(200);
    const before = fetches;
    const flood = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call(signJwt('RS256', `unknown-${i}`, goodClaims()))),
    );
    expect(flood.every((response) => response.statusCode === 401)).toBe(true);
    expect(fetches - before).toBeLessThanOrEqual(1);
  });

  it('refuses algorithm confusion: none, HS256 keyed with the public key, ES256 over an RSA signature, odd names', async () => {
    const claims = encode(goodClaims());
    const none = `${encode({ alg: 'none', typ: 'JWT', kid: 'rsa' })}.${claims}.`;
    const hsInput = `${encode({ alg: 'HS256', typ: 'JWT', kid: 'rsa' })}.${claims}`;
    const publicPem = rsa.publicKey.export({ format: 'pem', type: 'spki' });
    const hs = `${hsInput}.${createHmac('sha256', publicPem).update(hsInput).digest('base64url')}`;
    const rsaSigned = signJwt('RS256', 'rsa', goodClaims()).split('.');
    const esOverRsa = `${encode({ alg: 'ES256', typ: 'JWT', kid: 'rsa' })}.${rsaSigned[1]}.${rsaSigned[2]}`;
    const odd = ['toString', '__proto__', 'constructor'].map(
      (alg) => `${encode({ alg, typ: 'JWT', kid: 'rsa' })}.${rsaSigned[1]}.${rsaSigned[2]}`,
    );
    for (const token of [none, hs, esOverRsa, ...odd]) expect((await call(token)).statusCode, token).toBe(401);
  });

  it('picks up a rotated key set: a new key id after the cooldown, a withdrawn key once the set is older than its max age', async () => {
    // An app of its own: the clock moved forward below stays in its key cache.
    const own = await startAuthApp('sqlite', {
      required: true,
      methods: {
        jwt: { enabled: true, jwks_url: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json` },
      },
    });
    const callOwn = (token: string) =>
      own.app.inject({ method: 'GET', url: MANAGEMENT_PROBE, headers: { authorization: `JWT ${token}` } });
    const next = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const clock = (ms: number) => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });
    const withdrawn = keys.slice(0, 1);
    try {
      expect((await callOwn(signJwt('RS256', 'rsa', goodClaims()))).statusCode).toBe(200);
      keys.push({ ...next.publicKey.export({ format: 'jwk' }), kid: 'rsa-next', use: 'sig' });
      clock(JWKS_COOLDOWN_MS + 1000);
      const before = fetches;
      expect((await callOwn(signJwt('RS256', 'rsa-next', goodClaims(), next.privateKey))).statusCode).toBe(200);
      expect(fetches - before).toBe(1);
      // The provider withdraws the old key: it is still trusted from the cache until the set is too old.
      keys.splice(0, 1);
      expect((await callOwn(signJwt('RS256', 'rsa', goodClaims()))).statusCode).toBe(200);
      vi.useRealTimers();
      clock(JWKS_COOLDOWN_MS + JWKS_MAX_AGE_MS + 2000);
      expect((await callOwn(signJwt('RS256', 'rsa', goodClaims()))).statusCode).toBe(401);
      expect((await callOwn(signJwt('RS256', 'rsa-next', goodClaims(), next.privateKey))).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
      keys.splice(0, keys.length, ...withdrawn, ...keys.filter((key) => key.kid === 'ec'));
      await own.close();
    }
  });

  it('accepts PS256, as Flipt does', async () => {
    const input = `${encode({ alg: 'PS256', typ: 'JWT', kid: 'rsa' })}.${encode(goodClaims())}`;
    const signature = sign('sha256', Buffer.from(input), {
      key: rsa.privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 32,
    });
    expect((await call(`${input}.${signature.toString('base64url')}`)).statusCode).toBe(200);
  });

  it('warns once per JWKS fetch that gives no key set, not once per request', async () => {
    answer = 'not json';
    try {
      const warnings: string[] = [];
      const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
      const keys = jwksKeySource(url, (message) => warnings.push(message));
      const before = fetches;
      for (let i = 0; i < 5; i++) {
        await expect(verifyJwt(signJwt('RS256', 'rsa', goodClaims()), keys)).rejects.toBeInstanceOf(JwtError);
      }
      expect(fetches - before).toBeGreaterThan(0);
      expect(warnings).toHaveLength(fetches - before);
      expect(warnings[0]).toBe(`the JWKS address ${url} answered something other than a JSON key set`);
    } finally {
      answer = 'keys';
    }
  });

  it('answers 401, not 500, when the JWKS address answers something that is not JSON', async () => {
    answer = 'not json';
    const fresh = await startAuthApp('sqlite', {
      required: true,
      methods: {
        jwt: { enabled: true, jwks_url: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json` },
      },
    });
    try {
      const response = await fresh.app.inject({
        method: 'GET',
        url: MANAGEMENT_PROBE,
        headers: { authorization: `JWT ${signJwt('RS256', 'rsa', goodClaims())}` },
      });
      expect(response.statusCode).toBe(401);
    } finally {
      answer = 'keys';
      await fresh.close();
    }
  });
});
