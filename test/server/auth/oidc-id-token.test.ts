import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DISCOVERY_MAX_AGE_MS } from '../../../server/auth/session.js';
import { dialects } from '../support.js';
import { OIDC_CLIENT, oidcAuthentication, startAuthApp, type AuthTestApp } from './helpers.js';

/**
 * A provider whose ID tokens the test writes: discovery, JWKS and a token endpoint that answers each
 * code with the ID token `nextIdToken` signs for the nonce the login sent. Every request is recorded.
 */
async function startTokenProvider() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const requests: { path: string; form?: URLSearchParams }[] = [];
  let idToken: (form: URLSearchParams) => Promise<string> = async () => '';
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', async () => {
      const path = new URL(request.url ?? '/', issuer).pathname;
      const form = request.method === 'POST' ? new URLSearchParams(body) : undefined;
      requests.push({ path, form });
      const json = (value: unknown) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(value));
      };
      if (path === '/.well-known/openid-configuration')
        return json({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        });
      if (path === '/jwks') return json({ keys: [jwk] });
      if (path === '/token') return json({ access_token: 'at', token_type: 'Bearer', id_token: await idToken(form!) });
      response.statusCode = 404;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    requests,
    privateKey,
    count: (path: string) => requests.filter((request) => request.path === path).length,
    answerWith(sign: (form: URLSearchParams) => Promise<string>) {
      idToken = sign;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(dialects)('OIDC ID token checks on %s', (dialect) => {
  let idp: Awaited<ReturnType<typeof startTokenProvider>>;
  let t: AuthTestApp;
  beforeAll(async () => {
    idp = await startTokenProvider();
    t = await startAuthApp(dialect, oidcAuthentication(idp.issuer, { usePkce: true }));
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });
  afterEach(() => vi.useRealTimers());

  const sign = (claims: JWTPayload, key: CryptoKey | Uint8Array = idp.privateKey, alg = 'RS256') =>
    new SignJWT(claims).setProtectedHeader({ alg, kid: 'k1' }).sign(key);

  const authorize = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().authorizeUrl);
    return {
      nonce: url.searchParams.get('nonce')!,
      state: url.searchParams.get('state')!,
      challenge: url.searchParams.get('code_challenge')!,
      cookie: response.cookies.find((cookie) => cookie.name === 'flipt_client_state')!.value,
    };
  };

  /** A whole login whose ID token carries `claims(nonce)`: the callback's answer. */
  const logIn = async (claims: (nonce: string) => JWTPayload, signer = sign) => {
    const login = await authorize();
    idp.answerWith(() => signer(claims(login.nonce)));
    return t.app.inject({
      method: 'GET',
      url: `/auth/v1/method/oidc/local/callback?code=c0de&state=${login.state}`,
      cookies: { flipt_client_state: login.cookie },
    });
  };

  const now = () => Math.floor(Date.now() / 1000);
  const valid = (nonce: string): JWTPayload => ({
    iss: idp.issuer,
    aud: OIDC_CLIENT.clientId,
    sub: 'ada',
    email: 'ada@example.com',
    iat: now(),
    exp: now() + 300,
    nonce,
  });

  const refused = async (claims: (nonce: string) => JWTPayload, message: string, signer = sign) => {
    const response = await logIn(claims, signer);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(`login failed: ${message}`);
    expect(response.cookies.find((cookie) => cookie.name === 'flipt_client_token')).toBeUndefined();
  };

  it('signs in with a valid ID token, sending the PKCE verifier of the challenge it sent', async () => {
    const login = await authorize();
    idp.answerWith(() => sign(valid(login.nonce)));
    const response = await t.app.inject({
      method: 'GET',
      url: `/auth/v1/method/oidc/local/callback?code=c0de&state=${login.state}`,
      cookies: { flipt_client_state: login.cookie },
    });
    expect(response.statusCode).toBe(302);
    expect(response.cookies.find((cookie) => cookie.name === 'flipt_client_token')?.value).toMatch(/=$/);
    const form = idp.requests.findLast((request) => request.path === '/token')!.form!;
    expect(form.get('code')).toBe('c0de');
    expect(login.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createHash('sha256').update(form.get('code_verifier')!).digest('base64url')).toBe(login.challenge);
  });

  it('refuses an ID token for another audience, from another issuer, expired, or with a foreign azp', async () => {
    await refused((nonce) => ({ ...valid(nonce), aud: 'someone-else' }), 'unexpected JWT "aud" (audience) claim value');
    await refused(
      (nonce) => ({ ...valid(nonce), iss: 'https://evil.example' }),
      'unexpected JWT "iss" (issuer) claim value',
    );
    await refused(
      (nonce) => ({ ...valid(nonce), iat: now() - 7200, exp: now() - 3600 }),
      'unexpected JWT "exp" (expiration time) claim value, expiration is past current timestamp',
    );
    await refused(
      (nonce) => ({ ...valid(nonce), aud: [OIDC_CLIENT.clientId, 'other'], azp: 'other' }),
      'unexpected ID Token "azp" (authorized party) claim value',
    );
  });

  it('refuses an ID token replayed from another login (its nonce), or with none', async () => {
    const first = await authorize();
    await refused(() => valid(first.nonce), 'unexpected ID Token "nonce" claim value');
    await refused((nonce) => ({ ...valid(nonce), nonce: undefined }), 'JWT "nonce" (nonce) claim missing');
  });

  it('refuses alg confusion: HS256 keyed with the client secret, alg none, and a key that is not the provider’s', async () => {
    await refused(valid, 'unexpected JWT "alg" header parameter', (claims) =>
      sign(claims, new TextEncoder().encode(OIDC_CLIENT.clientSecret), 'HS256'),
    );
    const unsigned = (claims: JWTPayload) => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return Promise.resolve(`${part({ alg: 'none' })}.${part(claims)}.`);
    };
    await refused(valid, 'unexpected JWT "alg" header parameter', unsigned);
    const stranger = await generateKeyPair('RS256');
    await refused(valid, 'JWT signature verification failed', (claims) => sign(claims, stranger.privateKey));
  });

  it('fetches discovery and the provider keys once for many logins, and discovery again after an hour', async () => {
    const discovery = '/.well-known/openid-configuration';
    const before = idp.count(discovery);
    for (let i = 0; i < 5; i++) expect((await logIn(valid)).statusCode).toBe(302);
    expect(idp.count(discovery)).toBe(Math.max(before, 1));
    // The keys were fetched by the first login of this suite, or by this one.
    expect(idp.count('/jwks')).toBe(1);
    const cached = idp.count(discovery);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + DISCOVERY_MAX_AGE_MS + 1000 });
    await authorize();
    await authorize();
    expect(idp.count(discovery)).toBe(cached + 1);
  });
});
