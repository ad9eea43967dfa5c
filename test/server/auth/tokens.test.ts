import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/index.js';
import { dialects } from '../support.js';
import { asToken, MANAGEMENT_PROBE, startAuthApp, UNAUTHENTICATED, type AuthTestApp } from './helpers.js';

const BOOTSTRAP = 's3cr3t-bootstrap-token';

describe.each(dialects)('authentication off on %s', (dialect) => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthApp(dialect, { methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } } });
  });
  afterAll(() => t.close());

  it("lists Flipt v1.61's five methods in its order, token enabled, metadata only where Flipt sets it", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/v1/method' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      methods: [
        { method: 'METHOD_TOKEN', enabled: true, sessionCompatible: false },
        {
          method: 'METHOD_GITHUB',
          enabled: false,
          sessionCompatible: true,
          metadata: {
            authorize_url: '/auth/v1/method/github/authorize',
            callback_url: '/auth/v1/method/github/callback',
          },
        },
        { method: 'METHOD_OIDC', enabled: false, sessionCompatible: true, metadata: { providers: {} } },
        { method: 'METHOD_KUBERNETES', enabled: false, sessionCompatible: false },
        { method: 'METHOD_JWT', enabled: false, sessionCompatible: false },
      ],
    });
  });

  it('answers /auth/v1/self with 401 even for a valid token, as Flipt does when auth is not required', async () => {
    const response = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/self' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHENTICATED);
    expect(response.headers['www-authenticate']).toBe('request was not authenticated');
  });

  it('leaves the management API open', async () => {
    const response = await t.app.inject({ method: 'GET', url: MANAGEMENT_PROBE });
    expect(response.statusCode).toBe(200);
  });
});

describe.each(dialects)('API tokens with authentication required on %s', (dialect) => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthApp(dialect, {
      required: true,
      methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
    });
  });
  afterAll(() => t.close());

  const createToken = async (body: Record<string, unknown>) => {
    const response = await asToken(t.app, BOOTSTRAP, { method: 'POST', url: '/auth/v1/method/token', payload: body });
    expect(response.statusCode).toBe(200);
    return response.json() as {
      clientToken: string;
      authentication: { id: string; metadata: Record<string, string>; expiresAt: string | null };
    };
  };

  it("refuses a request without credentials in Flipt's 401 shape", async () => {
    const response = await t.app.inject({ method: 'GET', url: MANAGEMENT_PROBE });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHENTICATED);
    expect(response.headers['www-authenticate']).toBe('request was not authenticated');
  });

  it('guards a route however its address is spelled (the router decodes percent-escapes)', async () => {
    for (const url of [
      '/%61pi/v1/namespaces/default/probe',
      '/api/v1/namespaces/default/probe/',
      '/api/v1/namespaces/default/%70robe?x=1',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('refuses an unknown token, another scheme and a lowercase bearer scheme', async () => {
    for (const authorization of ['Bearer nope', `Basic ${BOOTSTRAP}`, `bearer ${BOOTSTRAP}`, `JWT ${BOOTSTRAP}`]) {
      const response = await t.app.inject({ method: 'GET', url: MANAGEMENT_PROBE, headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
    }
  });

  it('accepts the configured bootstrap token and reports it as self', async () => {
    const response = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/self' });
    expect(response.statusCode).toBe(200);
    const self = response.json();
    expect(self).toMatchObject({
      method: 'METHOD_TOKEN',
      metadata: {
        'io.flipt.auth.token.name': 'initial_bootstrap_token',
        'io.flipt.auth.token.description': 'Initial token created when bootstrapping authentication',
      },
    });
    // A token that never expires has no expiresAt, as Flipt v1.54 and later omit an unset field.
    expect(Object.keys(self)).toEqual(['id', 'method', 'createdAt', 'updatedAt', 'metadata']);
    expect((await asToken(t.app, BOOTSTRAP, { method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(200);
  });

  it('creates a token, returns it once, stores only its hash, and the token works', async () => {
    const created = await createToken({ name: 'ci', description: 'for the pipeline', metadata: { team: 'core' } });
    expect(created.clientToken).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(created.authentication.metadata).toEqual({
      team: 'core',
      'io.flipt.auth.token.name': 'ci',
      'io.flipt.auth.token.description': 'for the pipeline',
    });

    const reopened = await openDatabase(t.database.url, { migrate: false });
    const row = await reopened.db
      .selectFrom('authentications')
      .selectAll()
      .where('id', '=', created.authentication.id)
      .executeTakeFirstOrThrow();
    await reopened.close();
    expect(row.hashed_client_token).toBe(createHash('sha256').update(created.clientToken).digest('base64url'));
    expect(JSON.stringify(row)).not.toContain(created.clientToken);

    const fetched = await asToken(t.app, created.clientToken, {
      method: 'GET',
      url: `/auth/v1/tokens/${created.authentication.id}`,
    });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(created.authentication);
    expect(JSON.stringify(fetched.json())).not.toContain(created.clientToken);
  });

  it('rejects a token without a name and a malformed expiry with 400', async () => {
    const noName = await asToken(t.app, BOOTSTRAP, {
      method: 'POST',
      url: '/auth/v1/method/token',
      payload: { description: 'x' },
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toEqual({ code: 3, message: 'invalid field name: must not be empty', details: [] });
    const badExpiry = await asToken(t.app, BOOTSTRAP, {
      method: 'POST',
      url: '/auth/v1/method/token',
      payload: { name: 'x', expiresAt: 'tomorrow' },
    });
    expect(badExpiry.statusCode).toBe(400);
    expect(badExpiry.json().message).toMatch(/^invalid field expiresAt: must be an RFC 3339 timestamp/);
  });

  it('refuses a deleted token', async () => {
    const { clientToken, authentication } = await createToken({ name: 'short-lived' });
    expect((await asToken(t.app, clientToken, { method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(200);
    const deleted = await asToken(t.app, BOOTSTRAP, { method: 'DELETE', url: `/auth/v1/tokens/${authentication.id}` });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({});
    expect((await asToken(t.app, clientToken, { method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(401);
    const missing = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: `/auth/v1/tokens/${authentication.id}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(`authentication "${authentication.id}" not found`);
  });

  it('refuses a token whose expiry has passed, and accepts one whose expiry is ahead', async () => {
    const past = await createToken({ name: 'expired', expiresAt: '2001-01-01T00:00:00Z' });
    expect(past.authentication.expiresAt).toBe('2001-01-01T00:00:00Z');
    expect((await asToken(t.app, past.clientToken, { method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(401);
    const future = await createToken({ name: 'later', expiresAt: '2999-01-01T00:00:00.5+02:00' });
    expect(future.authentication.expiresAt).toBe('2998-12-31T22:00:00.500Z');
    expect((await asToken(t.app, future.clientToken, { method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(200);
  });

  it("expires the caller's own token with PUT /auth/v1/self/expire and clears the cookies", async () => {
    const { clientToken } = await createToken({ name: 'leaving' });
    const expired = await asToken(t.app, clientToken, { method: 'PUT', url: '/auth/v1/self/expire' });
    expect(expired.statusCode).toBe(200);
    expect(expired.json()).toEqual({});
    const cookies = expired.cookies.map((cookie) => [cookie.name, cookie.value, cookie.path]);
    expect(cookies).toEqual([
      ['flipt_client_state', '', '/'],
      ['flipt_client_token', '', '/'],
    ]);
    expect((await asToken(t.app, clientToken, { method: 'GET', url: '/auth/v1/self' })).statusCode).toBe(401);
  });

  it('never lets a token extend its own expiry, only shorten it', async () => {
    const { clientToken } = await createToken({ name: 'short-lived', expiresAt: '2030-01-01T00:00:00Z' });
    const later = await asToken(t.app, clientToken, {
      method: 'PUT',
      url: '/auth/v1/self/expire?expiresAt=2099-01-01T00:00:00Z',
    });
    expect(later.statusCode).toBe(400);
    expect(later.json().message).toBe('expiresAt must not be later than the current expiry');
    const self = await asToken(t.app, clientToken, { method: 'GET', url: '/auth/v1/self' });
    expect(self.json().expiresAt).toBe('2030-01-01T00:00:00Z');
    const earlier = await asToken(t.app, clientToken, {
      method: 'PUT',
      url: '/auth/v1/self/expire?expiresAt=2029-01-01T00:00:00Z',
    });
    expect(earlier.statusCode).toBe(200);
  });

  it("expires the caller's token at the time the expiresAt query parameter names", async () => {
    const { clientToken, authentication } = await createToken({ name: 'until-2999' });
    const expired = await asToken(t.app, clientToken, {
      method: 'PUT',
      url: '/auth/v1/self/expire?expiresAt=2999-01-01T00:00:00Z',
    });
    expect(expired.statusCode).toBe(200);
    const fetched = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: `/auth/v1/tokens/${authentication.id}` });
    expect(fetched.json().expiresAt).toBe('2999-01-01T00:00:00Z');
    expect((await asToken(t.app, clientToken, { method: 'GET', url: '/auth/v1/self' })).statusCode).toBe(200);
    const bad = await asToken(t.app, clientToken, { method: 'PUT', url: '/auth/v1/self/expire?expiresAt=soon' });
    expect(bad.statusCode).toBe(400);
  });

  it('accepts the client token from the flipt_client_token cookie, but never when an Authorization header is present', async () => {
    const { clientToken } = await createToken({ name: 'browser' });
    const byCookie = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: clientToken },
    });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json().metadata['io.flipt.auth.token.name']).toBe('browser');
    const withHeader = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: clientToken },
      headers: { authorization: 'Bearer wrong' },
    });
    expect(withHeader.statusCode).toBe(401);
  });

  it('clears the cookies when a cookie request to /auth/v1 is refused', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/self',
      cookies: { flipt_client_token: 'stale' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.cookies.map((cookie) => [cookie.name, cookie.value])).toEqual([
      ['flipt_client_state', ''],
      ['flipt_client_token', ''],
    ]);
  });

  it('lists tokens by method, page by page, with a decimal offset page token', async () => {
    const all = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/tokens?method=METHOD_TOKEN' });
    expect(all.statusCode).toBe(200);
    const { authentications, nextPageToken } = all.json();
    expect(nextPageToken).toBe('');
    expect(authentications.length).toBeGreaterThanOrEqual(5);
    expect(authentications.every((a: { method: string }) => a.method === 'METHOD_TOKEN')).toBe(true);
    expect(authentications[0].metadata['io.flipt.auth.token.name']).toBe('initial_bootstrap_token');

    const first = (await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/tokens?limit=2' })).json();
    expect(first.authentications.map((a: { id: string }) => a.id)).toEqual(
      authentications.slice(0, 2).map((a: { id: string }) => a.id),
    );
    expect(first.nextPageToken).toBe('2');
    const second = (
      await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/tokens?limit=2&pageToken=2' })
    ).json();
    expect(second.authentications.map((a: { id: string }) => a.id)).toEqual(
      authentications.slice(2, 4).map((a: { id: string }) => a.id),
    );

    const oidcOnly = (
      await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/tokens?method=METHOD_OIDC' })
    ).json();
    expect(oidcOnly).toEqual({ authentications: [], nextPageToken: '' });
  });

  it('answers bad list parameters with 400', async () => {
    const badToken = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/tokens?pageToken=abc' });
    expect(badToken.statusCode).toBe(400);
    expect(badToken.json().message).toBe('pageToken is not valid: "abc"');
    const badMethod = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/auth/v1/tokens?method=METHOD_MAGIC' });
    expect(badMethod.statusCode).toBe(400);
    expect(badMethod.json().message).toMatch(/^invalid field method: must be one of METHOD_NONE/);
  });

  it('keeps a namespace-scoped token to its own namespace', async () => {
    const { clientToken, authentication } = await createToken({ name: 'team-a', namespaceKey: 'team-a' });
    expect(authentication.metadata['io.flipt.auth.token.namespace']).toBe('team-a');
    const own = await asToken(t.app, clientToken, { method: 'GET', url: '/api/v1/namespaces/team-a/probe' });
    expect(own.statusCode).toBe(200);
    expect(
      (await asToken(t.app, clientToken, { method: 'GET', url: '/api/v1/namespaces/team%2Da/probe' })).statusCode,
    ).toBe(200);
    const other = await asToken(t.app, clientToken, { method: 'GET', url: '/api/v1/namespaces/default/probe' });
    expect(other.statusCode).toBe(401);
    expect((await asToken(t.app, clientToken, { method: 'GET', url: '/api/v1/namespaces' })).statusCode).toBe(401);
    expect((await asToken(t.app, clientToken, { method: 'GET', url: '/auth/v1/self' })).statusCode).toBe(401);
    expect((await asToken(t.app, clientToken, { method: 'GET', url: '/auth/v1/tokens' })).statusCode).toBe(401);

    const evaluate = (payload: Record<string, unknown>) =>
      asToken(t.app, clientToken, { method: 'POST', url: '/evaluate/v1/probe', payload });
    expect((await evaluate({ namespaceKey: 'team-a', flagKey: 'f' })).statusCode).toBe(200);
    expect((await evaluate({ flagKey: 'f' })).statusCode).toBe(401);
    const batch = (payload: Record<string, unknown>) =>
      asToken(t.app, clientToken, { method: 'POST', url: '/evaluate/v1/batch', payload });
    expect((await batch({ requests: [{ namespaceKey: 'team-a' }, { namespaceKey: 'team-a' }] })).statusCode).toBe(200);
    expect((await batch({ requests: [{ namespaceKey: 'team-a' }, { namespaceKey: 'b' }] })).statusCode).toBe(401);
  });

  it('reads the namespace of an evaluation as its handler does, so a scoped token cannot reach another one', async () => {
    const { clientToken } = await createToken({ name: 'team-c', namespaceKey: 'team-c' });
    const admin = (url: string, payload: Record<string, unknown>) =>
      asToken(t.app, BOOTSTRAP, { method: 'POST', url, payload });
    expect((await admin('/api/v1/namespaces', { key: 'team-c', name: 'C' })).statusCode).toBe(200);
    expect((await admin('/api/v1/flags', { key: 'leak', name: 'Leak', enabled: true })).statusCode).toBe(200);
    const secret = await admin('/api/v1/flags/leak/variants', { key: 'secret-variant' });
    const update = await asToken(t.app, BOOTSTRAP, {
      method: 'PUT',
      url: '/api/v1/flags/leak',
      payload: { name: 'Leak', enabled: true, defaultVariantId: secret.json().id },
    });
    expect(update.statusCode).toBe(200);
    expect(
      (await admin('/api/v1/flags', { key: 'on', name: 'On', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).statusCode,
    ).toBe(200);
    const post = (url: string, payload: Record<string, unknown>) =>
      asToken(t.app, clientToken, { method: 'POST', url, payload });
    // The token's own key reaches the default namespace's variant only through the guard's misreading.
    const open = await asToken(t.app, BOOTSTRAP, {
      method: 'POST',
      url: '/evaluate/v1/variant',
      payload: { flagKey: 'leak', entityId: 'e' },
    });
    expect(open.json().variantKey).toBe('secret-variant');
    // null camelCase is absent, for the guard and the handler alike: this names team-c, where no flag "leak" is.
    const spelled = { namespaceKey: null, namespace_key: 'team-c', entityId: 'e' };
    const variant = await post('/evaluate/v1/variant', { ...spelled, flagKey: 'leak' });
    expect(variant.statusCode).toBe(404);
    expect(variant.body).not.toContain('secret-variant');
    expect((await post('/evaluate/v1/boolean', { ...spelled, flagKey: 'on' })).statusCode).toBe(404);
    const batch = await post('/evaluate/v1/batch', { requests: [{ ...spelled, flagKey: 'leak' }] });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().responses[0].type).toBe('ERROR_EVALUATION_RESPONSE_TYPE');
    // A single evaluation is read as one, whatever `requests` it carries.
    const disguised = { requests: [{ namespaceKey: 'team-c' }], flagKey: 'leak', entityId: 'e' };
    expect((await post('/evaluate/v1/variant', disguised)).statusCode).toBe(401);
    // A namespace that is not a string names none the token holds.
    expect((await post('/evaluate/v1/variant', { namespaceKey: 7, flagKey: 'leak', entityId: 'e' })).statusCode).toBe(
      401,
    );
    // The legacy routes read null the same way.
    const legacy = await post('/api/v1/evaluate', { ...spelled, flagKey: 'leak' });
    expect(legacy.statusCode).toBe(404);
    expect(legacy.body).not.toContain('secret-variant');
  });

  it('keeps a namespace-scoped token out of other namespaces on the legacy batch route, whatever field names them', async () => {
    const { clientToken } = await createToken({ name: 'team-b', namespaceKey: 'team-b' });
    const admin = (method: 'POST', url: string, payload: Record<string, unknown>) =>
      asToken(t.app, BOOTSTRAP, { method, url, payload });
    expect((await admin('POST', '/api/v1/namespaces', { key: 'secret', name: 'Secret' })).statusCode).toBe(200);
    expect(
      (await admin('POST', '/api/v1/namespaces/secret/flags', { key: 'f', name: 'F', enabled: true })).statusCode,
    ).toBe(200);
    const batch = (payload: Record<string, unknown>) =>
      asToken(t.app, clientToken, { method: 'POST', url: '/api/v1/batch-evaluate', payload });
    const item = { flag_key: 'f', entity_id: 'e' };
    expect((await batch({ namespace_key: 'secret', requests: [item] })).statusCode).toBe(401);
    expect((await batch({ namespaceKey: 'secret', requests: [item] })).statusCode).toBe(401);
    const single = await asToken(t.app, clientToken, {
      method: 'POST',
      url: '/api/v1/evaluate',
      payload: { namespace_key: 'secret', ...item },
    });
    expect(single.statusCode).toBe(401);
    // A token of namespace "default", whose items name no namespace, once read "secret" this way.
    const { clientToken: defaultToken } = await createToken({ name: 'default-team', namespaceKey: 'default' });
    const leak = await asToken(t.app, defaultToken, {
      method: 'POST',
      url: '/api/v1/batch-evaluate',
      payload: { namespace_key: 'secret', requests: [item] },
    });
    expect(leak.statusCode).toBe(401);
    // Its own namespace still evaluates, items naming no namespace included.
    const own = await batch({ namespace_key: 'team-b', exclude_not_found: true, requests: [item] });
    expect(own.statusCode).toBe(200);
  });

  it('keeps a token of namespace "default" out of the namespace a legacy write names in its body or query', async () => {
    const { clientToken } = await createToken({ name: 'default-writer', namespaceKey: 'default' });
    const admin = (url: string, payload: Record<string, unknown>) =>
      asToken(t.app, BOOTSTRAP, { method: 'POST', url, payload });
    expect((await admin('/api/v1/namespaces', { key: 'walled', name: 'Walled' })).statusCode).toBe(200);
    expect((await admin('/api/v1/namespaces/walled/flags', { key: 'w', name: 'W', enabled: true })).statusCode).toBe(
      200,
    );
    const variant = await admin('/api/v1/namespaces/walled/flags/w/variants', { key: 'v' });
    const segment = await admin('/api/v1/namespaces/walled/segments', {
      key: 's',
      name: 'S',
      matchType: 'ALL_MATCH_TYPE',
    });
    const rule = await admin('/api/v1/namespaces/walled/flags/w/rules', { segmentKey: 's', rank: 1 });
    const distribution = await admin(`/api/v1/namespaces/walled/flags/w/rules/${rule.json().id}/distributions`, {
      variantId: variant.json().id,
      rollout: 100,
    });
    expect(segment.statusCode).toBe(200);
    const asScoped = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
      asToken(t.app, clientToken, { method, url, payload });
    const named = { namespaceKey: 'walled' };
    const attempts = [
      await asScoped('POST', '/api/v1/flags', { ...named, key: 'sneak', name: 'Sneak' }),
      await asScoped('PUT', '/api/v1/flags/w', { ...named, name: 'Renamed', enabled: false }),
      await asScoped('POST', '/api/v1/flags/w/variants', { ...named, key: 'sneaky' }),
      await asScoped('POST', '/api/v1/segments', {
        ...named,
        key: 'sneak',
        name: 'Sneak',
        matchType: 'ALL_MATCH_TYPE',
      }),
      await asScoped(
        'DELETE',
        `/api/v1/flags/w/rules/${rule.json().id}/distributions/${distribution.json().id}?namespaceKey=walled&variantId=${variant.json().id}`,
      ),
      await asScoped('DELETE', '/api/v1/flags/w?namespaceKey=walled'),
    ];
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([401, 401, 401, 401, 401, 401]);
    const flag = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/api/v1/namespaces/walled/flags/w' });
    expect(flag.json()).toMatchObject({ name: 'W', enabled: true, variants: [{ key: 'v' }] });
    expect(flag.json().rules ?? []).toEqual(expect.anything());
    const flags = await asToken(t.app, BOOTSTRAP, { method: 'GET', url: '/api/v1/namespaces/walled/flags' });
    expect(flags.json().flags.map((f: { key: string }) => f.key)).toEqual(['w']);
    // Its own namespace, named or not, is still its to write.
    expect((await asScoped('POST', '/api/v1/flags', { key: 'mine', name: 'Mine' })).statusCode).toBe(200);
    expect(
      (await asScoped('POST', '/api/v1/flags', { namespaceKey: 'default', key: 'mine-too', name: 'Mine too' }))
        .statusCode,
    ).toBe(200);
  });
});

describe.each(dialects)('exclusions on %s', (dialect) => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthApp(dialect, {
      required: true,
      exclude: { management: true },
      methods: { token: { enabled: true } },
    });
  });
  afterAll(() => t.close());

  it('leaves /api/v1 open when management is excluded, and still guards evaluation and /auth/v1', async () => {
    expect((await t.app.inject({ method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/evaluate/v1/probe', payload: {} })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/tokens' })).statusCode).toBe(401);
  });

  it('bootstraps a generated token when none is configured and none exists', async () => {
    const reopened = await openDatabase(t.database.url, { migrate: false });
    const rows = await reopened.db.selectFrom('authentications').selectAll().execute();
    await reopened.close();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].metadata)['io.flipt.auth.token.name']).toBe('initial_bootstrap_token');
  });
});

describe.each(dialects)('evaluation exclusion on %s', (dialect) => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthApp(dialect, { required: true, exclude: { evaluation: true } });
  });
  afterAll(() => t.close());

  it('leaves /evaluate/v1 and the snapshot open, and still guards /api/v1 and /meta', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/evaluate/v1/probe', payload: {} })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/internal/v1/evaluation/snapshot/namespace/default' })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: MANAGEMENT_PROBE })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/meta/info' })).statusCode).toBe(401);
  });
});
