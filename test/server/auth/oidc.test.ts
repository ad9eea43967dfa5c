import { openDatabase } from '../../../server/db/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { OIDC_APP, OIDC_CLIENT, oidcAuthentication, startAuthApp, type AuthTestApp } from './helpers.js';
import { signInAt, startOidcProvider, type LocalOidcProvider } from './oidc-provider.js';

const CALLBACK = `${OIDC_APP}/auth/v1/method/oidc/local/callback`;

describe.each(dialects)('OIDC login against a local OpenID provider on %s', (dialect) => {
  let idp: LocalOidcProvider;
  let t: AuthTestApp;
  let strict: AuthTestApp;
  let pkce: AuthTestApp;
  let fixedNonce: AuthTestApp;
  beforeAll(async () => {
    idp = await startOidcProvider({ ...OIDC_CLIENT, redirectUris: [CALLBACK] });
    const section = (emailMatches?: string[], usePkce?: boolean, nonce?: string) =>
      oidcAuthentication(idp.issuer, {
        scopes: ['email', 'profile'],
        tokenLifetime: '2h',
        emailMatches,
        usePkce,
        nonce,
      });
    t = await startAuthApp(dialect, section());
    strict = await startAuthApp(dialect, section(['@allowed\\.example$']));
    pkce = await startAuthApp(dialect, section(undefined, true));
    fixedNonce = await startAuthApp(dialect, section(undefined, false, 'flipt.nonce-1'));
  });
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await pkce?.close();
    await fixedNonce?.close();
    await idp?.close();
  });

  /** authorize → the provider's pages → callback; returns the callback's answer. */
  const logIn = async (app: AuthTestApp, login: string) => {
    const authorize = await app.app.inject({
      method: 'GET',
      url: '/auth/v1/method/oidc/local/authorize?state=console',
    });
    expect(authorize.statusCode).toBe(200);
    const stateCookie = authorize.cookies.find((cookie) => cookie.name === 'flipt_client_state')!;
    const redirect = await signInAt(authorize.json().authorizeUrl, login, CALLBACK);
    return app.app.inject({
      method: 'GET',
      url: `${redirect.pathname}${redirect.search}`,
      cookies: { flipt_client_state: stateCookie.value },
    });
  };

  it('lists the provider with its authorize and callback addresses', async () => {
    const methods = (await t.app.inject({ method: 'GET', url: '/auth/v1/method' })).json().methods;
    expect(methods.find((m: { method: string }) => m.method === 'METHOD_OIDC')).toEqual({
      method: 'METHOD_OIDC',
      enabled: true,
      sessionCompatible: true,
      metadata: {
        providers: {
          local: {
            authorize_url: '/auth/v1/method/oidc/local/authorize',
            callback_url: '/auth/v1/method/oidc/local/callback',
          },
        },
      },
    });
  });

  it("answers authorize with the provider URL, wrapping the caller's state, and sets the state cookie", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize?state=abc' });
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(url.searchParams.get('client_id')).toBe(OIDC_CLIENT.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    const state = JSON.parse(Buffer.from(url.searchParams.get('state')!, 'base64url').toString());
    expect(state.original_state).toBe('abc');
    // A fresh nonce per login, kept in the state cookie beside the security token (no PKCE verifier here).
    const nonce = url.searchParams.get('nonce');
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = response.cookies.find((c) => c.name === 'flipt_client_state')!;
    expect(cookie).toMatchObject({
      value: `${state.security_token}.${nonce}.`,
      path: '/auth/v1/method/oidc/local/callback',
      httpOnly: true,
      sameSite: 'Lax',
      maxAge: 600,
    });
  });

  it('signs in, sets the session cookie, redirects to the console, and the cookie authenticates', async () => {
    const callback = await logIn(t, 'ada');
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/');
    const session = callback.cookies.find((c) => c.name === 'flipt_client_token')!;
    expect(session).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Strict' });
    expect(session.domain).toBe('ensign.test');
    expect(session.value).toMatch(/^[A-Za-z0-9_-]{43}=$/);

    const self = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: session.value },
    });
    expect(self.statusCode).toBe(200);
    const body = self.json();
    expect(body.method).toBe('METHOD_OIDC');
    expect(body.metadata).toEqual({
      'io.flipt.auth.oidc.provider': 'local',
      'io.flipt.auth.oidc.email': 'ada@example.com',
      'io.flipt.auth.oidc.email_verified': 'true',
      'io.flipt.auth.oidc.name': 'Ada',
      'io.flipt.auth.oidc.picture': 'https://avatars.example.com/ada.png',
      'io.flipt.auth.oidc.sub': 'ada',
      'io.flipt.auth.oidc.preferred_username': 'ada',
      'io.flipt.auth.email': 'ada@example.com',
      'io.flipt.auth.name': 'Ada',
      'io.flipt.auth.picture': 'https://avatars.example.com/ada.png',
    });
    const lifetime = Date.parse(body.expiresAt) - Date.parse(body.createdAt);
    expect(Math.round(lifetime / 60_000)).toBe(120);

    const logout = await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/self/expire',
      cookies: { flipt_client_token: session.value },
    });
    expect(logout.statusCode).toBe(200);
    const after = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: session.value },
    });
    expect(after.statusCode).toBe(401);
  });

  it('clears the state cookie at the callback and refuses the same state a second time', async () => {
    const authorize = await t.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    const stateCookie = authorize.cookies.find((cookie) => cookie.name === 'flipt_client_state')!;
    const redirect = await signInAt(authorize.json().authorizeUrl, 'ada', CALLBACK);
    const callback = () =>
      t.app.inject({
        method: 'GET',
        url: `${redirect.pathname}${redirect.search}`,
        cookies: { flipt_client_state: stateCookie.value },
      });
    const first = await callback();
    expect(first.statusCode).toBe(302);
    const cleared = first.cookies.find((cookie) => cookie.name === 'flipt_client_state');
    expect(cleared?.value).toBe('');
    const replay = await callback();
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe('login failed: this login was already finished');
  });

  it('refuses a callback whose state does not match the state cookie', async () => {
    const authorize = await t.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    const redirect = await signInAt(authorize.json().authorizeUrl, 'mallory', CALLBACK);
    const response = await t.app.inject({
      method: 'GET',
      url: `${redirect.pathname}${redirect.search}`,
      cookies: { flipt_client_state: 'forged' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 16, message: 'login failed: unexpected state parameter', details: [] });
    expect(response.cookies.find((c) => c.name === 'flipt_client_token')).toBeUndefined();
  });

  it('answers an unknown provider with 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/nobody/authorize' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('oidc provider "nobody" not found');
  });

  it('refuses a login whose email does not match email_matches: no session cookie, nothing stored', async () => {
    const outsider = await logIn(strict, 'eve');
    expect(outsider.statusCode).toBe(401);
    expect(outsider.json().message).toMatch(/^login failed: .* is not allowed by email_matches$/);
    expect(outsider.cookies.find((c) => c.name === 'flipt_client_token')).toBeUndefined();
    const stored = await openDatabase(strict.config.db.url, { migrate: false });
    try {
      const rows = await stored.db.selectFrom('authentications').select('metadata').execute();
      expect(rows.filter((row) => row.metadata.includes('eve'))).toEqual([]);
    } finally {
      await stored.close();
    }

    const insider = await logIn(strict, 'bob@allowed.example');
    const insiderToken = insider.cookies.find((c) => c.name === 'flipt_client_token')!.value;
    const allowed = await strict.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: insiderToken },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().metadata['io.flipt.auth.oidc.email']).toBe('bob@allowed.example');
  });

  it('sends a PKCE challenge when use_pkce is set, and the provider accepts the verifier', async () => {
    const authorize = await pkce.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    const url = new URL(authorize.json().authorizeUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const callback = await logIn(pkce, 'ada');
    expect(callback.statusCode).toBe(302);
    expect(
      (
        await pkce.app.inject({
          method: 'GET',
          url: '/auth/v1/self',
          cookies: { flipt_client_token: callback.cookies.find((c) => c.name === 'flipt_client_token')!.value },
        })
      ).statusCode,
    ).toBe(200);
  });

  it("refuses an ID token issued for another login's nonce, and a PKCE verifier that is not the login's", async () => {
    const authorize = () => t.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    const victim = await authorize();
    const attacker = await authorize();
    const [securityToken] = victim.cookies.find((c) => c.name === 'flipt_client_state')!.value.split('.');
    const [, otherNonce] = attacker.cookies.find((c) => c.name === 'flipt_client_state')!.value.split('.');
    const redirect = await signInAt(victim.json().authorizeUrl, 'ada', CALLBACK);
    // The state matches, but the ID token the code yields carries the victim's nonce, not this cookie's.
    const replayed = await t.app.inject({
      method: 'GET',
      url: `${redirect.pathname}${redirect.search}`,
      cookies: { flipt_client_state: `${securityToken}.${otherNonce}.` },
    });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe('login failed: unexpected ID Token "nonce" claim value');
    expect(replayed.cookies.find((c) => c.name === 'flipt_client_token')).toBeUndefined();

    const login = await pkce.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    const [token, nonce] = login.cookies.find((c) => c.name === 'flipt_client_state')!.value.split('.');
    const back = await signInAt(login.json().authorizeUrl, 'ada', CALLBACK);
    const wrongVerifier = await pkce.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: { flipt_client_state: `${token}.${nonce}.${'x'.repeat(43)}` },
    });
    expect(wrongVerifier.statusCode).toBe(401);
    expect(wrongVerifier.json().message).toMatch(/^login failed: the provider refused: /);
  });
  it('sends the configured nonce on every login and checks it in the ID token', async () => {
    const authorize = await fixedNonce.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    expect(new URL(authorize.json().authorizeUrl).searchParams.get('nonce')).toBe('flipt.nonce-1');
    // Nothing of the nonce in the state cookie: the callback reads it from the settings.
    expect(authorize.cookies.find((c) => c.name === 'flipt_client_state')!.value).toMatch(/^[A-Za-z0-9_-]{43}\.\.$/);
    const callback = await logIn(fixedNonce, 'grace');
    expect(callback.statusCode).toBe(302);
    const session = callback.cookies.find((c) => c.name === 'flipt_client_token')!.value;
    const self = await fixedNonce.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: session },
    });
    expect(self.json().metadata['io.flipt.auth.oidc.email']).toBe('grace@example.com');

    // The code of a login that sent a random nonce (same client) yields an ID token without the configured one.
    const other = await t.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    const redirect = await signInAt(other.json().authorizeUrl, 'grace', CALLBACK);
    const login = await fixedNonce.app.inject({ method: 'GET', url: '/auth/v1/method/oidc/local/authorize' });
    const search = new URLSearchParams(redirect.search);
    search.set('state', new URL(login.json().authorizeUrl).searchParams.get('state')!);
    const refused = await fixedNonce.app.inject({
      method: 'GET',
      url: `${redirect.pathname}?${search}`,
      cookies: { flipt_client_state: login.cookies.find((c) => c.name === 'flipt_client_state')!.value },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('login failed: unexpected ID Token "nonce" claim value');
  });
});
