import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import {
  evaluationNamespace,
  legacyEvaluationNamespace,
  namedNamespace,
  ofrepNamespace,
} from '../evaluation/request-namespace.js';
import { AuthMetadata, type Authentication } from '../../domain/flipt/auth.js';
import { DEFAULT_NAMESPACE } from '../../domain/flipt/types.js';
import { unauthenticated } from '../flipt/errors.js';
import { textField } from '../http/fields.js';
import { JwtError, verifyJwt } from './jwt.js';
import type { AuthRuntime } from './runtime.js';
import { isExpired } from './store.js';
import { clearSessionCookies, SESSION_COOKIE } from './cookies.js';

/**
 * Which requirement guards a route when `authentication.required` is on. Flipt protects its API
 * mounts only: `management` (/api/v1, `exclude.management`), `evaluation` (`exclude.evaluation`),
 * `ofrep` (`exclude.ofrep`) and `always` (/auth/v1, /meta, /internal/v1); everything else the server
 * answers (health, the console and widget files, the survey APIs with their own keys) is `public`.
 */
export type Protection = 'public' | 'management' | 'evaluation' | 'ofrep' | 'always';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own declaration; without one, its scope's (`protectRoutes`). */
    protection?: Protection;
  }
}

const SCOPE_PROTECTION = Symbol('protection');
type ProtectedScope = FastifyInstance & { [SCOPE_PROTECTION]?: Protection };

/** Declares the protection of the routes a scope (and the scopes it registers) adds without declaring their own. */
export function protectRoutes(scope: FastifyInstance, protection: Protection): void {
  (scope as ProtectedScope)[SCOPE_PROTECTION] = protection;
}

/** A route's own declaration, as its shorthand options: `app.get(url, protectedAs('public'), handler)`. */
export function protectedAs(protection: Protection): { config: { protection: Protection } } {
  return { config: { protection } };
}

/**
 * onRoute, installed before any route: fail closed. A route that declares no protection, in its
 * `config` or by its scope, stops the start naming it. CORS preflights (registered by @fastify/cors
 * in the scopes it serves) carry no credentials and are public.
 */
export function requireProtection(this: FastifyInstance, route: RouteOptions): void {
  const methods = [route.method].flat();
  const protection =
    route.config?.protection ??
    (methods.every((method) => method === 'OPTIONS') ? 'public' : (this as ProtectedScope)[SCOPE_PROTECTION]);
  if (!protection)
    throw new Error(
      `route ${methods.join(',')} ${route.url} declares no protection (config.protection or protectRoutes)`,
    );
  route.config = { ...route.config, protection };
}

/** The route's declared protection; a request that matched no route is the not-found handler's, public. */
export function protectionOf(request: FastifyRequest): Protection {
  if (routeOf(request) === undefined) return 'public';
  return request.routeOptions.config.protection ?? 'always';
}

/**
 * The route a request matched, as registered (`/api/v1/namespaces/:namespaceKey/flags`), or undefined
 * when none did. Guards go by it rather than by the URL, which percent-encoding could disguise.
 */
export function routeOf(request: FastifyRequest): string | undefined {
  return request.routeOptions.url;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's authentication, set when `authentication.required` is on and the route is guarded. */
    authentication?: Authentication;
  }
}

/** onRequest, installed when `authentication.required` is on: resolves the caller's credential on guarded routes, or answers 401. */
export async function enforceAuthentication(runtime: AuthRuntime, request: FastifyRequest, reply: FastifyReply) {
  const { settings } = runtime;
  const protection = protectionOf(request);
  if (protection === 'public') return;
  if (protection === 'management' && settings.exclude.management) return;
  if (protection === 'evaluation' && settings.exclude.evaluation) return;
  if (protection === 'ofrep' && settings.exclude.ofrep) return;
  try {
    request.authentication = await authenticate(runtime, request);
  } catch (error) {
    if (routeOf(request)?.startsWith('/auth/v1/') && request.cookies[SESSION_COOKIE] !== undefined)
      clearSessionCookies(reply, settings);
    throw error;
  }
}

/** Credentials in Flipt's order: the Authorization header (Bearer or JWT), else the session cookie. */
async function authenticate(runtime: AuthRuntime, request: FastifyRequest): Promise<Authentication> {
  const header = request.headers.authorization;
  if (header !== undefined) return authenticateHeader(runtime, header);
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie) return byClientToken(runtime, cookie);
  throw unauthenticated();
}

/** An `Authorization` value (an HTTP header or gRPC's `authorization` metadata): `Bearer <token>` or `JWT <jwt>`. */
export async function authenticateHeader(runtime: AuthRuntime, header: string): Promise<Authentication> {
  if (header.startsWith('Bearer ')) return byClientToken(runtime, header.slice('Bearer '.length));
  if (header.startsWith('JWT ') && runtime.jwtKeys) return byJwt(runtime, header.slice('JWT '.length));
  throw unauthenticated();
}

async function byClientToken(runtime: AuthRuntime, clientToken: string): Promise<Authentication> {
  const authentication = await runtime.store.byClientToken(clientToken);
  if (!authentication || isExpired(authentication)) throw unauthenticated();
  const email = authentication.metadata[AuthMetadata.oidcEmail];
  const patterns = runtime.settings.oidc.emailMatches;
  if (authentication.method === 'METHOD_OIDC' && patterns.length > 0) {
    if (email === undefined || !patterns.some((pattern) => pattern.test(email))) throw unauthenticated();
  }
  return authentication;
}

/** JWT authentications are not stored: Flipt synthesises one from the claims on every request. */
async function byJwt(runtime: AuthRuntime, token: string): Promise<Authentication> {
  const { jwt } = runtime.settings;
  let claims: Record<string, unknown>;
  try {
    claims = await verifyJwt(token, runtime.jwtKeys!, {
      issuer: jwt.issuer,
      subject: jwt.subject,
      audiences: jwt.audiences,
    });
  } catch (error) {
    if (error instanceof JwtError) throw unauthenticated();
    throw error;
  }
  return {
    id: '',
    method: 'METHOD_JWT',
    metadata: jwtMetadata(claims),
  };
}

export function jwtMetadata(claims: Record<string, unknown>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(claims)) {
    if (name.startsWith('io.flipt.auth') && typeof value === 'string') metadata[name] = value;
  }
  if (typeof claims.iss === 'string') metadata['io.flipt.auth.jwt.issuer'] = claims.iss;
  const user = claims.user;
  if (user && typeof user === 'object') {
    const fields: [string, string][] = [
      ['email', 'email'],
      ['sub', 'sub'],
      ['image', 'picture'],
      ['name', 'name'],
      ['role', 'role'],
    ];
    for (const [claim, key] of fields) {
      const value = (user as Record<string, unknown>)[claim];
      if (typeof value === 'string') metadata[`io.flipt.auth.jwt.${key}`] = value;
    }
  }
  return metadata;
}

/**
 * preHandler: a namespace-scoped token may only reach the management and evaluation routes of its
 * own namespace (the snapshot route too, as Flipt does since v1.55).
 */
export async function enforceNamespaceScope(request: FastifyRequest) {
  const scope = request.authentication?.metadata[AuthMetadata.tokenNamespace];
  if (scope === undefined) return;
  const namespaces = requestNamespaces(request);
  if (!namespaces || namespaces.length === 0 || namespaces.some((ns) => ns !== scope)) throw unauthenticated();
}

/**
 * The namespaces a request acts on, or undefined when it is not a namespaced request. Evaluation
 * bodies are read with the handlers' own readers (server/evaluation/request-namespace.ts); a body
 * they would refuse names no namespace a token holds.
 */
function requestNamespaces(request: FastifyRequest): (string | undefined)[] | undefined {
  const route = routeOf(request) ?? '';
  const body = request.body;
  const items = (): unknown[] => {
    const requests = typeof body === 'object' && body !== null ? (body as { requests?: unknown }).requests : undefined;
    return Array.isArray(requests) ? requests : [];
  };
  const namespaced = /^\/api\/v1\/namespaces\/:(\w+)\/./.exec(route);
  if (namespaced && !/\/(batch-)?evaluate$/.test(route)) return [textField(request.params, namespaced[1])];
  if (/^\/api\/v1\/(flags|segments)(\/|$)/.test(route)) return legacyManagementNamespaces(body, request.query);
  if (/^\/api\/v1\/(namespaces\/:namespaceKey\/)?(batch-)?evaluate$/.test(route)) {
    // The namespace the handler evaluates in, and every one a batch's items name (an item naming none uses the batch's).
    const evaluated = legacyEvaluationNamespace(textField(request.params, 'namespaceKey'), body);
    return [
      evaluated,
      ...items().map((item) => {
        const named = namedNamespace(item);
        return named === '' ? evaluated : named;
      }),
    ];
  }
  const v2 = (fields: unknown) => {
    const named = namedNamespace(fields);
    return named === undefined ? undefined : evaluationNamespace(named);
  };
  // A batch names a namespace per request; every one must be the token's.
  if (route === '/evaluate/v1/batch') return items().map(v2);
  if (/^\/evaluate\/v1\/[^/]+$/.test(route)) return [v2(body)];
  // OFREP names its namespace in a header.
  if (/^\/ofrep\/v1\/evaluate\//.test(route)) return [ofrepNamespace(request.headers)];
  const snapshot = /^\/internal\/v1\/evaluation\/snapshot\/namespace\/:(\w+)$/.exec(route);
  if (snapshot) return [textField(request.params, snapshot[1])];
  return undefined;
}

/**
 * The namespaces a legacy management route (no namespace in its path) may act on: "default", unless its
 * body or query names one, as Flipt's gateway lets a write's body and a delete's query do. Every spelling
 * of every one named counts, so that no reading of the request by its handler escapes the token's scope;
 * a name that is not a string names none the token holds.
 */
function legacyManagementNamespaces(body: unknown, query: unknown): (string | undefined)[] {
  const named = [body, query].flatMap((fields) => {
    if (typeof fields !== 'object' || fields === null) return [];
    const { namespaceKey, namespace_key } = fields as { namespaceKey?: unknown; namespace_key?: unknown };
    return [namespaceKey, namespace_key].filter((value) => value !== undefined && value !== null && value !== '');
  });
  return named.length === 0
    ? [DEFAULT_NAMESPACE]
    : named.map((value) => (typeof value === 'string' ? value : undefined));
}
