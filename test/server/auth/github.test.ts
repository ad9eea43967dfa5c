import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { startAuthApp, type AuthTestApp } from './helpers.js';
import { startFakeGithub, type FakeGithub, type FakeUser } from './fake-github.js';

const APP = 'http://ensign.test';
const CALLBACK = `${APP}/auth/v1/method/github/callback`;

const ADA: FakeUser = {
  login: 'ada',
  id: 42,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  avatar_url: 'https://avatars.example.com/ada',
  orgs: ['analytical'],
};
const EVE: FakeUser = {
  login: 'eve',
  id: 7,
  name: null,
  email: null,
  avatar_url: 'https://avatars.example.com/eve',
  orgs: ['elsewhere'],
};

describe.each(dialects)('GitHub login against a local OAuth server on %s', (dialect) => {
  let github: FakeGithub;
  let t: AuthTestApp;
  let orgOnly: AuthTestApp;
  let teamOnly: AuthTestApp;
  beforeAll(async () => {
    github = await startFakeGithub({ id: 'gh-client', secret: 'gh-secret' });
    const section = (allowed?: string[], teams?: Record<string, string[]>) => ({
      required: true,
      session: { domain: 'ensign.test' },
      methods: {
        github: {
          enabled: true,
          client_id: 'gh-client',
          client_secret: 'gh-secret',
          redirect_address: APP,
          server_url: github.base,
          api_url: `${github.base}/api`,
          allowed_organizations: allowed,
          allowed_teams: teams,
        },
      },
    });
    t = await startAuthApp(dialect, section());
    orgOnly = await startAuthApp(dialect, section(['analytical']));
    teamOnly = await startAuthApp(dialect, section(['analytical', 'elsewhere'], { analytical: ['engines'] }));
  });
  afterAll(async () => {
    await t?.close();
    await orgOnly?.close();
    await teamOnly?.close();
    await github?.close();
  });

  /** authorize on Ensign, approve at the fake GitHub as `user`, then hand the redirect to the callback. */
  const logIn = async (app: AuthTestApp, user: FakeUser, headers: Record<string, string> = {}) => {
    const authorize = await app.app.inject({ method: 'GET', url: '/auth/v1/method/github/authorize?state=x' });
    expect(authorize.statusCode).toBe(200);
    github.state.signedIn = user;
    const approved = await fetch(authorize.json().authorizeUrl, { redirect: 'manual' });
    const redirect = new URL(approved.headers.get('location')!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(CALLBACK);
    const stateCookie = authorize.cookies.find((c) => c.name === 'flipt_client_state')!;
    expect(stateCookie.path).toBe('/auth/v1/method/github/callback');
    return app.app.inject({
      method: 'GET',
      url: `${redirect.pathname}${redirect.search}`,
      cookies: { flipt_client_state: stateCookie.value },
      headers,
    });
  };

  const selfOf = (app: AuthTestApp, callback: Awaited<ReturnType<typeof logIn>>) => {
    const token = callback.cookies.find((c) => c.name === 'flipt_client_token')!.value;
    return app.app.inject({ method: 'GET', url: '/auth/v1/self', cookies: { flipt_client_token: token } });
  };

  it('lists GitHub with its authorize and callback addresses, under a forwarded prefix too', async () => {
    const methods = (
      await t.app.inject({ method: 'GET', url: '/auth/v1/method', headers: { 'x-forwarded-prefix': '/flags' } })
    ).json().methods;
    expect(methods.find((m: { method: string }) => m.method === 'METHOD_GITHUB')).toEqual({
      method: 'METHOD_GITHUB',
      enabled: true,
      sessionCompatible: true,
      metadata: {
        authorize_url: '/flags/auth/v1/method/github/authorize',
        callback_url: '/flags/auth/v1/method/github/callback',
      },
    });
  });

  it('sends the user to the configured GitHub address with the client id, callback and user:email scope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/v1/method/github/authorize' });
    const url = new URL(response.json().authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${github.base}/login/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe('gh-client');
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('scope')).toBe('user:email');
  });

  it('signs in and maps the GitHub profile to metadata', async () => {
    const callback = await logIn(t, ADA);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/');
    const self = await selfOf(t, callback);
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({
      method: 'METHOD_GITHUB',
      metadata: {
        'io.flipt.auth.github.email': 'ada@example.com',
        'io.flipt.auth.github.name': 'Ada Lovelace',
        'io.flipt.auth.github.picture': 'https://avatars.example.com/ada',
        'io.flipt.auth.github.sub': '42',
        'io.flipt.auth.github.preferred_username': 'ada',
        'io.flipt.auth.email': 'ada@example.com',
        'io.flipt.auth.name': 'Ada Lovelace',
        'io.flipt.auth.picture': 'https://avatars.example.com/ada',
      },
    });
  });

  it('redirects to the console under a forwarded prefix', async () => {
    const callback = await logIn(t, ADA, { 'x-forwarded-prefix': '/flags' });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/flags/');
  });

  it('ignores a forwarded prefix that is not a path, so a login never leaves the site', async () => {
    for (const prefix of ['//evil.example', 'https://evil.example', '/ok/../\\evil', 'evil']) {
      const callback = await logIn(t, ADA, { 'x-forwarded-prefix': prefix });
      expect(callback.headers.location, prefix).toBe('/');
    }
  });

  it('leaves out what the profile lacks', async () => {
    const self = await selfOf(t, await logIn(t, EVE));
    expect(self.json().metadata).toEqual({
      'io.flipt.auth.github.picture': 'https://avatars.example.com/eve',
      'io.flipt.auth.github.sub': '7',
      'io.flipt.auth.github.preferred_username': 'eve',
      'io.flipt.auth.picture': 'https://avatars.example.com/eve',
    });
  });

  it('admits only members of an allowed organization, and asks for read:org', async () => {
    const authorize = await orgOnly.app.inject({ method: 'GET', url: '/auth/v1/method/github/authorize' });
    expect(new URL(authorize.json().authorizeUrl).searchParams.get('scope')).toBe('user:email read:org');

    const member = await logIn(orgOnly, ADA);
    expect(member.statusCode).toBe(302);
    expect((await selfOf(orgOnly, member)).statusCode).toBe(200);

    const outsider = await logIn(orgOnly, EVE);
    expect(outsider.statusCode).toBe(401);
    expect(outsider.json().message).toBe('login failed: the user is not a member of an allowed organization or team');
    expect(outsider.cookies.find((c) => c.name === 'flipt_client_token')).toBeUndefined();
  });

  it('admits, in an organization that names teams, only members of those teams', async () => {
    expect((await logIn(teamOnly, { ...ADA, teams: ['analytical/engines'] })).statusCode).toBe(302);
    expect((await logIn(teamOnly, { ...ADA, teams: ['analytical/looms'] })).statusCode).toBe(401);
    // Once teams are named, an allowed organization naming none admits no one, as in Flipt.
    expect((await logIn(teamOnly, EVE)).statusCode).toBe(401);
  });

  it('stores the organizations and teams it read, as Flipt v1.53 and later do with read:org', async () => {
    const member = {
      ...ADA,
      orgs: ['analytical', 'babbage'],
      teams: ['analytical/engines', 'analytical/looms', 'babbage/cogs'],
    };
    const organizationsOf = async (app: AuthTestApp) => {
      const { metadata } = (await selfOf(app, await logIn(app, member))).json();
      return [metadata['io.flipt.auth.github.organizations'], metadata['io.flipt.auth.github.teams']];
    };
    // Only the allowed organizations and, where teams are named, only those teams.
    expect(await organizationsOf(orgOnly)).toEqual(['["analytical"]', '{"analytical":["engines","looms"]}']);
    expect(await organizationsOf(teamOnly)).toEqual(['["analytical"]', '{"analytical":["engines"]}']);
    // Without read:org nothing is read or stored.
    const { metadata } = (await selfOf(t, await logIn(t, member))).json();
    expect(Object.keys(metadata).filter((key) => /organizations|teams/.test(key))).toEqual([]);
  });

  it('refuses a code GitHub does not know', async () => {
    const authorize = await t.app.inject({ method: 'GET', url: '/auth/v1/method/github/authorize' });
    const state = new URL(authorize.json().authorizeUrl).searchParams.get('state')!;
    const stateCookie = authorize.cookies.find((c) => c.name === 'flipt_client_state')!;
    const response = await t.app.inject({
      method: 'GET',
      url: `/auth/v1/method/github/callback?code=made-up&state=${state}`,
      cookies: { flipt_client_state: stateCookie.value },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(
      'login failed: GitHub refused the code: The code passed is incorrect or expired.',
    );
  });
});
