import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthMetadata, type AuthMethod } from '../../domain/flipt/auth.js';
import { FliptError, GrpcCode, notFound } from '../flipt/errors.js';
import type { AuthRuntime } from './runtime.js';
import { setSessionCookie, STATE_COOKIE } from './cookies.js';
import { forwardedPrefix } from './routes.js';
import { timestampIn } from './store.js';
import * as v from 'valibot';
import { parse } from '../flipt/routes/http.js';
import { addRoutes, type ListedRoute, RouteTable, route } from '../route-definitions.js';
import * as oidc from 'openid-client';
import { causeOf, type Claims } from './jwt.js';
import type { OidcProviderSettings } from './settings.js';
import { admitted, type GithubMembership, membershipMetadata } from './github-orgs.js';

const provider = v.object({ provider: v.string() });
/** What a login's authorize and callback read of the query: the caller's state, the provider's code or error. */
const loginQuery = v.object({
  state: v.optional(v.string()),
  code: v.optional(v.string()),
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
});
type LoginQuery = v.InferOutput<typeof loginQuery>;

/**
 * Browser sessions: OIDC providers and GitHub. `authorize` wraps the caller's state with a random
 * security token kept in the state cookie and answers `{authorizeUrl}`; `callback` checks the state,
 * trades the code for the user's identity, stores a session authentication, sets the session cookie
 * and redirects to the console.
 */
export async function sessionRoutes(app: FastifyInstance, runtime: AuthRuntime): Promise<void> {
  const { settings } = runtime;
  addRoutes(new RouteTable(app, parse), [
    ...(settings.oidc.enabled ? oidcRoutes(runtime) : []),
    ...(settings.github.enabled ? githubRoutes(runtime) : []),
  ]);
}

/** Each configured OIDC provider's authorize and callback. */
function oidcRoutes(runtime: AuthRuntime): ListedRoute[] {
  const { settings } = runtime;
  const discovery = new DiscoveryCache();
  /** A configured provider's settings and its discovered metadata, or a 404. */
  const providerFor = async (name: string) => {
    const config = settings.oidc.providers[name];
    if (!config) throw notFound(`oidc provider "${name}"`);
    return { config, provider: await discovery.get(name, config) };
  };
  return [
    route({
      method: 'GET',
      url: '/auth/v1/method/oidc/:provider/authorize',
      protection: 'public',
      params: provider,
      query: loginQuery,
      handler: async ({ params: { provider: name }, query }, request, reply) => {
        const { provider, config } = await providerFor(name);
        // A configured nonce (`nonce`, as Flipt v1.50 and later) is the same for every login and is
        // checked from the settings; otherwise a fresh one per login rides in the state cookie.
        const nonce = config.nonce ?? oidc.randomNonce();
        const verifier = config.usePkce ? oidc.randomPKCECodeVerifier() : undefined;
        const kept = config.nonce === undefined ? nonce : undefined;
        const state = beginLogin(request, reply, runtime, `/auth/v1/method/oidc/${name}/callback`, query.state, [
          kept,
          verifier,
        ]);
        const url = oidc.buildAuthorizationUrl(provider, {
          redirect_uri: `${config.redirectAddress}/auth/v1/method/oidc/${name}/callback`,
          scope: ['openid', ...config.scopes.filter((scope) => scope !== 'openid')].join(' '),
          state,
          nonce,
          ...(verifier && {
            code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
            code_challenge_method: 'S256',
          }),
        });
        return { authorizeUrl: url.href };
      },
    }),

    route({
      method: 'GET',
      url: '/auth/v1/method/oidc/:provider/callback',
      protection: 'public',
      params: provider,
      query: loginQuery,
      handler: async ({ params: { provider: name }, query }, request, reply) => {
        const { provider, config } = await providerFor(name);
        const callbackPath = `/auth/v1/method/oidc/${name}/callback`;
        const { state, secrets } = finishLogin(request, reply, runtime, callbackPath, query);
        const [nonce, verifier] = secrets;
        // The URL the provider redirected to, as the provider knows it (the redirect address, not our host).
        const currentUrl = new URL(
          `${config.redirectAddress}${callbackPath}${request.url.slice(request.url.indexOf('?'))}`,
        );
        const endpoints = provider.serverMetadata();
        let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
        try {
          tokens = await oidc.authorizationCodeGrant(provider, currentUrl, {
            expectedState: state,
            expectedNonce: config.nonce ?? (nonce || undefined),
            pkceCodeVerifier: verifier || undefined,
            idTokenExpected: true,
          });
        } catch (error) {
          throw providerFailure(error, endpoints.token_endpoint ?? config.issuerUrl);
        }
        let claims: Claims = { ...tokens.claims() };
        if (endpoints.userinfo_endpoint && tokens.access_token) {
          try {
            const info = await oidc.fetchUserInfo(provider, tokens.access_token, String(claims.sub));
            claims = { ...claims, ...definedOnly(info) };
          } catch (error) {
            throw providerFailure(error, endpoints.userinfo_endpoint);
          }
        }
        // email_matches refuses the login itself: no session, no stored authentication.
        const email = typeof claims.email === 'string' ? claims.email : undefined;
        const patterns = settings.oidc.emailMatches;
        if (patterns.length > 0 && (email === undefined || !patterns.some((pattern) => pattern.test(email)))) {
          throw loginFailed(`${email ?? 'a login without an email'} is not allowed by email_matches`);
        }
        await startSession(request, reply, runtime, 'METHOD_OIDC', oidcMetadata(name, claims));
      },
    }),
  ];
}

/** A session's metadata from the provider's claims, under Flipt's `io.flipt.auth.oidc.*` keys. */
function oidcMetadata(provider: string, claims: Claims): Record<string, string> {
  const metadata: Record<string, string> = { 'io.flipt.auth.oidc.provider': provider };
  for (const claim of ['email', 'email_verified', 'name', 'profile', 'picture', 'sub', 'preferred_username']) {
    const value = claims[claim];
    if (typeof value === 'string' || typeof value === 'boolean')
      metadata[`io.flipt.auth.oidc.${claim}`] = String(value);
  }
  addGenericMetadata(metadata, claims.email, claims.name, claims.picture);
  return metadata;
}

/** GitHub's authorize and callback. */
function githubRoutes(runtime: AuthRuntime): ListedRoute[] {
  const { github } = runtime.settings;
  const redirectUri = `${github.redirectAddress}/auth/v1/method/github/callback`;
  // Organizations are read, for the login check and the metadata, when read:org is asked for.
  const readsOrgs = github.allowedOrganizations.length > 0 || github.scopes.includes('read:org');
  return [
    route({
      method: 'GET',
      url: '/auth/v1/method/github/authorize',
      protection: 'public',
      query: loginQuery,
      handler: ({ query }, request, reply) => {
        const state = beginLogin(request, reply, runtime, '/auth/v1/method/github/callback', query.state);
        const scopes = new Set(['user:email', ...github.scopes]);
        if (readsOrgs) scopes.add('read:org');
        const url = new URL(`${github.serverUrl}/login/oauth/authorize`);
        url.search = new URLSearchParams({
          client_id: github.clientId,
          redirect_uri: redirectUri,
          scope: [...scopes].join(' '),
          state,
        }).toString();
        return { authorizeUrl: url.toString() };
      },
    }),

    route({
      method: 'GET',
      url: '/auth/v1/method/github/callback',
      protection: 'public',
      query: loginQuery,
      handler: async ({ query }, request, reply) => {
        const { code } = finishLogin(request, reply, runtime, '/auth/v1/method/github/callback', query);
        const token = await postForm<{ access_token?: string; error_description?: string }>(
          `${github.serverUrl}/login/oauth/access_token`,
          { client_id: github.clientId, client_secret: github.clientSecret, code, redirect_uri: redirectUri },
        );
        if (!token.access_token)
          throw loginFailed(`GitHub refused the code${token.error_description ? `: ${token.error_description}` : ''}`);
        const user = await getJson<{
          login?: string;
          id?: number;
          name?: string | null;
          email?: string | null;
          avatar_url?: string;
        }>(`${github.apiUrl}/user`, token.access_token);
        const member = readsOrgs ? await githubMembership(github.apiUrl, token.access_token) : undefined;
        if (member && !admitted(member, github))
          throw loginFailed('the user is not a member of an allowed organization or team');
        const metadata: Record<string, string> = {};
        const put = (key: string, value: unknown) => {
          if (value !== undefined && value !== null && value !== '')
            metadata[`io.flipt.auth.github.${key}`] = String(value);
        };
        put('email', user.email);
        put('name', user.name);
        put('picture', user.avatar_url);
        put('sub', user.id);
        put('preferred_username', user.login);
        if (member) {
          const { organizations, teams } = membershipMetadata(member, github);
          put('organizations', organizations);
          put('teams', teams);
        }
        addGenericMetadata(metadata, user.email, user.name, user.avatar_url);
        await startSession(request, reply, runtime, 'METHOD_GITHUB', metadata);
      },
    }),
  ];
}

/** The user's organizations and teams (the first 100, as Flipt asks for them). */
async function githubMembership(apiUrl: string, accessToken: string): Promise<GithubMembership> {
  const orgs = await getJson<{ login: string }[]>(`${apiUrl}/user/orgs`, accessToken);
  const teams = await getJson<{ slug: string; organization: { login: string } }[]>(
    `${apiUrl}/user/teams?per_page=100`,
    accessToken,
  );
  const teamsByOrg = new Map<string, string[]>();
  for (const team of teams) {
    const org = team.organization.login;
    teamsByOrg.set(org, [...(teamsByOrg.get(org) ?? []), team.slug]);
  }
  return { orgs: new Set(orgs.map((org) => org.login)), teamsByOrg };
}

/** How long a provider's discovery document (and so its endpoints) is trusted before it is fetched again. */
export const DISCOVERY_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * Each provider's discovery (openid-client's Configuration, which also caches the provider's keys),
 * fetched at its first login, shared by logins that start meanwhile, and fetched again once it is
 * older than DISCOVERY_MAX_AGE_MS. A failed discovery (provider down at the time) is retried on the
 * next login.
 */
class DiscoveryCache {
  private readonly entries = new Map<string, { at: number; provider: Promise<oidc.Configuration> }>();

  get(name: string, config: OidcProviderSettings): Promise<oidc.Configuration> {
    const entry = this.entries.get(name);
    if (entry && Date.now() - entry.at < DISCOVERY_MAX_AGE_MS) return entry.provider;
    const provider = discover(config);
    this.entries.set(name, { at: Date.now(), provider });
    provider.catch(() => {
      if (this.entries.get(name)?.provider === provider) this.entries.delete(name);
    });
    return provider;
  }
}

async function discover(config: OidcProviderSettings): Promise<oidc.Configuration> {
  try {
    return await oidc.discovery(
      new URL(config.issuerUrl),
      config.clientId,
      undefined,
      oidc.ClientSecretBasic(config.clientSecret),
      {
        timeout: PROVIDER_TIMEOUT_MS / 1000,
        // openid-client trusts an ID token from the token endpoint on TLS alone; its signature is
        // checked too, against the provider's keys. An http:// issuer is the operator's explicit choice
        // (a provider on the same host or network).
        execute: [
          oidc.enableNonRepudiationChecks,
          ...(config.issuerUrl.startsWith('http://') ? [oidc.allowInsecureRequests] : []),
        ],
      },
    );
  } catch (error) {
    throw providerFailure(error, `${config.issuerUrl}/.well-known/openid-configuration`);
  }
}

/**
 * What went wrong with the provider, for the caller: a provider that cannot be reached is the
 * server's trouble (503); a refused code or an invalid ID token or answer is a failed login (401).
 */
function providerFailure(error: unknown, address: string): FliptError {
  if (error instanceof oidc.ResponseBodyError)
    return loginFailed(`the provider refused: ${error.error_description || error.error}`);
  if (error instanceof oidc.ClientError || error instanceof oidc.AuthorizationResponseError) {
    // A failed ID token check keeps its precise reason (which claim) in its cause.
    return loginFailed(error.cause instanceof Error ? error.cause.message : error.message);
  }
  return new FliptError(GrpcCode.Unavailable, `login failed: cannot reach ${address} (${causeOf(error)})`);
}

const loginFailed = (reason: string) => new FliptError(GrpcCode.Unauthenticated, `login failed: ${reason}`);

/**
 * Starts a login: the state sent to the provider, and the state cookie holding its security token
 * and the login's secrets (OIDC's nonce and PKCE verifier), which only this browser can send back.
 */
function beginLogin(
  request: FastifyRequest,
  reply: FastifyReply,
  runtime: AuthRuntime,
  callbackPath: string,
  /** The caller's own state, returned to it after the login. */
  originalState = '',
  secrets: (string | undefined)[] = [],
): string {
  const { session } = runtime.settings;
  const securityToken = randomBytes(32).toString('base64url');
  // Every part is base64url, so a dot separates them.
  reply.setCookie(STATE_COOKIE, [securityToken, ...secrets.map((secret) => secret ?? '')].join('.'), {
    path: `${forwardedPrefix(request)}${callbackPath}`,
    domain: session.cookieDomain,
    secure: session.secure,
    httpOnly: true,
    sameSite: 'lax',
    maxAge: Math.floor(session.stateLifetimeMs / 1000),
  });
  return Buffer.from(JSON.stringify({ security_token: securityToken, original_state: originalState })).toString(
    'base64url',
  );
}

/**
 * Security tokens of logins already finished, kept until their state would have expired anyway: a
 * callback replayed with the same state and cookie is refused.
 */
const finishedLogins = new Map<string, number>();

function markFinished(securityToken: string, lifetimeMs: number): boolean {
  const now = Date.now();
  for (const [token, until] of finishedLogins) if (until <= now) finishedLogins.delete(token);
  if (finishedLogins.has(securityToken)) return false;
  finishedLogins.set(securityToken, now + lifetimeMs);
  return true;
}

/**
 * Checks the callback's state against the state cookie, once: the cookie is cleared and the state
 * cannot be used again. Returns the code, the state and the secrets `beginLogin` kept in the cookie.
 */
function finishLogin(
  request: FastifyRequest,
  reply: FastifyReply,
  runtime: AuthRuntime,
  callbackPath: string,
  query: LoginQuery,
): { code: string; state: string; secrets: string[] } {
  const { session } = runtime.settings;
  reply.clearCookie(STATE_COOKIE, { path: `${forwardedPrefix(request)}${callbackPath}`, domain: session.cookieDomain });
  if (query.error) throw loginFailed(query.error_description || query.error);
  const [securityToken, ...secrets] = (request.cookies[STATE_COOKIE] ?? '').split('.');
  let sent: unknown;
  try {
    sent = JSON.parse(Buffer.from(query.state ?? '', 'base64url').toString('utf8'));
  } catch {
    sent = undefined;
  }
  const sentToken = (sent as { security_token?: unknown } | undefined)?.security_token;
  if (!securityToken || sentToken !== securityToken) throw loginFailed('unexpected state parameter');
  if (!query.code) throw loginFailed('the provider sent no code');
  if (!markFinished(securityToken, session.stateLifetimeMs)) throw loginFailed('this login was already finished');
  return { code: query.code, state: query.state!, secrets };
}

async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  runtime: AuthRuntime,
  method: AuthMethod,
  metadata: Record<string, string>,
) {
  const { tokenLifetimeMs } = runtime.settings.session;
  const expiresAt = timestampIn(tokenLifetimeMs);
  const { clientToken } = await runtime.store.create({ method, metadata, expiresAt });
  setSessionCookie(reply, runtime.settings, clientToken, new Date(Date.parse(expiresAt)));
  return reply.redirect(`${forwardedPrefix(request)}/`, 302);
}

function addGenericMetadata(metadata: Record<string, string>, email: unknown, name: unknown, picture: unknown) {
  if (typeof email === 'string' && email) metadata[AuthMetadata.email] = email;
  if (typeof name === 'string' && name) metadata[AuthMetadata.name] = name;
  if (typeof picture === 'string' && picture) metadata[AuthMetadata.picture] = picture;
}

function definedOnly(claims: Claims): Claims {
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined && value !== null));
}

const PROVIDER_TIMEOUT_MS = 10_000;

/** A call to the login provider; failing to reach it is the server's trouble (503), not the user's. */
async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    const reason = causeOf(error);
    throw new FliptError(GrpcCode.Unavailable, `login failed: cannot reach ${url} (${reason})`);
  }
}

async function getJson<T>(url: string, bearer?: string): Promise<T> {
  const response = await call(url, {
    headers: { accept: 'application/json', ...(bearer && { authorization: `Bearer ${bearer}` }) },
  });
  if (!response.ok) throw loginFailed(`${url} answered HTTP ${response.status}`);
  return (await response.json()) as T;
}

async function postForm<T>(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await call(url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as T & { error?: string; error_description?: string };
  if (!response.ok)
    throw loginFailed(
      `${url} answered HTTP ${response.status}${body.error ? ` (${body.error_description || body.error})` : ''}`,
    );
  return body;
}
