import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { asToken, startAuthApp, type AuthTestApp } from './helpers.js';
import { protectedAs } from '../../../server/auth/enforce.js';

const BOOTSTRAP = 'csrf-bootstrap-token';
const ORIGIN = 'http://ensign.test';

describe.each(dialects)('CSRF protection on %s', (dialect) => {
  let t: AuthTestApp;
  let session: string;
  beforeAll(async () => {
    t = await startAuthApp(
      dialect,
      {
        required: true,
        session: { csrf: { key: 'a-32-byte-long-csrf-signing-key!' } },
        methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
      },
      (app) => {
        app.post('/api/v1/client/:environmentId/probe', protectedAs('public'), async () => ({ ok: true }));
      },
    );
    const created = await asToken(t.app, BOOTSTRAP, {
      method: 'POST',
      url: '/auth/v1/method/token',
      payload: { name: 'browser' },
    });
    session = created.json().clientToken;
  });
  afterAll(() => t.close());

  /** What the console does: GET /meta/info with the session cookie, keeping the CSRF header and cookie. */
  const fetchToken = async (csrfCookie?: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/meta/info',
      cookies: { flipt_client_token: session, ...(csrfCookie && { _gorilla_csrf: csrfCookie }) },
    });
    expect(response.statusCode).toBe(200);
    const header = response.headers['x-csrf-token'] as string;
    const cookie = response.cookies.find((c) => c.name === '_gorilla_csrf');
    return { header, cookie: cookie?.value ?? csrfCookie! };
  };

  const post = (options: { cookies?: Record<string, string>; headers?: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: '/evaluate/v1/probe', payload: {}, ...options });

  it('sets the CSRF cookie Secure when the session is secure, as the session cookie', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/meta/info', cookies: { flipt_client_token: session } })).cookies.find(
        (c) => c.name === '_gorilla_csrf',
      )?.secure,
    ).toBeFalsy();
    const secure = await startAuthApp(dialect, {
      required: true,
      session: { secure: true, domain: 'flags.example.com', csrf: { key: 'a-32-byte-long-csrf-signing-key!' } },
      methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
    });
    try {
      const response = await secure.app.inject({
        method: 'GET',
        url: '/meta/info',
        headers: { authorization: `Bearer ${BOOTSTRAP}` },
      });
      expect(response.cookies.find((c) => c.name === '_gorilla_csrf')?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('hands out a masked token on /meta responses and its cookie once', async () => {
    const first = await fetchToken();
    expect(first.header).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    const second = await fetchToken(first.cookie);
    expect(second.cookie).toBe(first.cookie);
    expect(second.header).not.toBe(first.header);
  });

  it('refuses a cookie-authenticated POST from a page (Origin) without the token with 403', async () => {
    const { cookie } = await fetchToken();
    const response = await post({
      cookies: { flipt_client_token: session, _gorilla_csrf: cookie },
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toBe('Forbidden - CSRF token invalid\n');
  });

  it('accepts it with any token handed out for the cookie, as the console sends them', async () => {
    const first = await fetchToken();
    const second = await fetchToken(first.cookie);
    for (const header of [first.header, second.header]) {
      const response = await post({
        cookies: { flipt_client_token: session, _gorilla_csrf: first.cookie },
        headers: { origin: ORIGIN, 'x-csrf-token': header },
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('refuses a token of another cookie, a forged cookie and a malformed token', async () => {
    const mine = await fetchToken();
    const theirs = await fetchToken();
    const forged = `${Buffer.alloc(32, 1).toString('base64url')}.${'A'.repeat(43)}`;
    const cases: [string | undefined, string][] = [
      [mine.cookie, theirs.header],
      [forged, mine.header],
      [undefined, mine.header],
      [mine.cookie, 'not-a-token'],
    ];
    for (const [cookie, header] of cases) {
      const response = await post({
        cookies: { flipt_client_token: session, ...(cookie && { _gorilla_csrf: cookie }) },
        headers: { origin: ORIGIN, 'x-csrf-token': header },
      });
      expect(response.statusCode).toBe(403);
    }
  });

  it('does not check requests without Origin, header-authenticated requests, or safe methods', async () => {
    expect((await post({ cookies: { flipt_client_token: session } })).statusCode).toBe(200);
    expect((await post({ headers: { origin: ORIGIN, authorization: `Bearer ${session}` } })).statusCode).toBe(200);
    const get = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: session },
      headers: { origin: ORIGIN },
    });
    expect(get.statusCode).toBe(200);
  });

  it("leaves routes outside Flipt's API alone, such as the survey client API a page on the same origin calls", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client/env/probe',
      payload: {},
      cookies: { flipt_client_token: session },
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe.each(dialects)('CSRF trusted origins on %s', (dialect) => {
  const TRUSTED = 'https://console.example.com';
  let t: AuthTestApp;
  let session: string;
  beforeAll(async () => {
    t = await startAuthApp(dialect, {
      required: true,
      session: {
        csrf: {
          key: 'a-32-byte-long-csrf-signing-key!',
          // Accepted as Flipt v1.61 accepts it, to no effect.
          secure: false,
          trusted_origins: [TRUSTED, 'http://localhost:3000'],
        },
      },
      methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
    });
    const created = await asToken(t.app, BOOTSTRAP, {
      method: 'POST',
      url: '/auth/v1/method/token',
      payload: { name: 'browser' },
    });
    session = created.json().clientToken;
  });
  afterAll(() => t.close());

  const write = (origin: string) =>
    t.app.inject({
      method: 'POST',
      url: '/evaluate/v1/probe',
      payload: {},
      cookies: { flipt_client_token: session },
      headers: { origin },
    });

  it("passes a cookie-authenticated write from a trusted origin, with no token, as Flipt's CrossOriginProtection does", async () => {
    expect((await write(TRUSTED)).statusCode).toBe(200);
    expect((await write('http://localhost:3000')).statusCode).toBe(200);
  });

  it('refuses one from any other origin, including a trusted one written differently', async () => {
    for (const origin of [ORIGIN, 'https://console.example.com:8443', 'http://console.example.com', 'null']) {
      const response = await write(origin);
      expect(response.statusCode, origin).toBe(403);
      expect(response.body).toBe('Forbidden - CSRF token invalid\n');
    }
  });
});

describe.each(dialects)('without a CSRF key on %s', (dialect) => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthApp(dialect, {});
  });
  afterAll(() => t.close());

  it('sends no CSRF header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/info' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-csrf-token']).toBeUndefined();
  });
});
