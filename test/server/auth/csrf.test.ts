import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { asToken, startAuthApp, type AuthTestApp } from './helpers.js';
import { protectedAs } from '../../../server/auth/enforce.js';
import { CROSS_ORIGIN_REFUSAL, CROSS_SITE_REFUSAL } from '../../../server/auth/csrf.js';

// Flipt v1.59.3 and later guard writes with Go's CrossOriginProtection when `csrf.key` is set: no token,
// the browser's Sec-Fetch-Site (or, without it, Origin against Host) decides, for every credential.

const BOOTSTRAP = 'csrf-bootstrap-token';
const HOST = 'flags.example.com';
const SAME = `https://${HOST}`;
const OTHER = 'https://attacker.example';

describe.each(dialects)('cross-origin protection on %s', (dialect) => {
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

  /** A write with the session cookie, as the console makes it, from a page with these headers. */
  const write = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/evaluate/v1/probe',
      payload: {},
      cookies: { flipt_client_token: session },
      headers: { host: HOST, ...headers },
    });

  it('hands out no CSRF token or cookie, as Flipt v1.61 does', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/info', cookies: { flipt_client_token: session } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-csrf-token']).toBeUndefined();
    expect(response.cookies).toEqual([]);
  });

  it('passes a same-origin write and a user-initiated one with no token, a stale token ignored', async () => {
    expect((await write({ 'sec-fetch-site': 'same-origin', origin: SAME })).statusCode).toBe(200);
    expect((await write({ 'sec-fetch-site': 'none' })).statusCode).toBe(200);
    expect((await write({ 'sec-fetch-site': 'same-origin', 'x-csrf-token': 'left-from-v1.47' })).statusCode).toBe(200);
  });

  it('refuses a write another site or origin sends, by Sec-Fetch-Site, with 403 and Go’s message', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const responses = [
        await write({ 'sec-fetch-site': site, origin: OTHER }),
        ...(await Promise.all(
          [
            ['PUT', '/api/v1/namespaces/default'],
            ['DELETE', '/api/v1/namespaces/default/flags/any'],
          ].map(([method, url]) =>
            t.app.inject({
              method: method as 'PUT',
              url,
              payload: {},
              cookies: { flipt_client_token: session },
              headers: { host: HOST, 'sec-fetch-site': site, origin: OTHER },
            }),
          ),
        )),
      ];
      for (const response of responses) {
        expect(response.statusCode, site).toBe(403);
        expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(response.body).toBe(`${CROSS_SITE_REFUSAL}\n`);
      }
    }
    // Sec-Fetch-Site decides even when Origin matches Host.
    expect((await write({ 'sec-fetch-site': 'cross-site', origin: SAME })).statusCode).toBe(403);
  });

  it('without Sec-Fetch-Site, passes an Origin whose host is Host and refuses any other', async () => {
    expect((await write({ origin: SAME })).statusCode).toBe(200);
    expect((await write({ origin: `http://${HOST}` })).statusCode).toBe(200);
    for (const origin of [OTHER, `https://${HOST}:8443`, `https://FLAGS.example.com`, 'null']) {
      const response = await write({ origin });
      expect(response.statusCode, origin).toBe(403);
      expect(response.body).toBe(`${CROSS_ORIGIN_REFUSAL}\n`);
    }
  });

  it('passes a request with neither header, as an SDK or curl sends it', async () => {
    expect((await write({})).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/evaluate/v1/probe',
          payload: {},
          headers: { authorization: `Bearer ${session}` },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('guards every credential, as Flipt does: a header token from another site is refused too', async () => {
    const response = await asToken(t.app, session, {
      method: 'POST',
      url: '/evaluate/v1/probe',
      payload: {},
      headers: { host: HOST, 'sec-fetch-site': 'cross-site', origin: OTHER },
    });
    expect(response.statusCode).toBe(403);
  });

  it('lets safe methods through from anywhere', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      const response = await t.app.inject({
        method,
        url: '/auth/v1/self',
        cookies: { flipt_client_token: session },
        headers: { host: HOST, 'sec-fetch-site': 'cross-site', origin: OTHER },
      });
      expect(response.statusCode, method).not.toBe(403);
    }
  });

  it("leaves routes outside Flipt's API alone, such as the survey client API other sites call", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client/env/probe',
      payload: {},
      headers: { host: HOST, 'sec-fetch-site': 'cross-site', origin: OTHER },
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

  const write = (origin: string, site?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/evaluate/v1/probe',
      payload: {},
      cookies: { flipt_client_token: session },
      headers: { host: HOST, origin, ...(site && { 'sec-fetch-site': site }) },
    });

  it('passes a write from a trusted origin, whether or not the browser sends Sec-Fetch-Site', async () => {
    for (const site of ['cross-site', 'same-site', undefined]) {
      expect((await write(TRUSTED, site)).statusCode, site).toBe(200);
      expect((await write('http://localhost:3000', site)).statusCode, site).toBe(200);
    }
  });

  it('refuses one from any other origin, including a trusted one written differently', async () => {
    for (const origin of [OTHER, 'https://console.example.com:8443', 'http://console.example.com', 'null']) {
      expect((await write(origin, 'cross-site')).body, origin).toBe(`${CROSS_SITE_REFUSAL}\n`);
      expect((await write(origin)).body, origin).toBe(`${CROSS_ORIGIN_REFUSAL}\n`);
    }
  });
});

describe.each(dialects)('without a CSRF key on %s', (dialect) => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthApp(dialect, {});
  });
  afterAll(() => t.close());

  it('checks nothing and sends no CSRF header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/info' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-csrf-token']).toBeUndefined();
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/evaluate/v1/probe',
      payload: {},
      headers: { host: HOST, 'sec-fetch-site': 'cross-site', origin: OTHER },
    });
    expect(crossSite.statusCode).toBe(200);
  });
});
