import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AUTH_METHODS,
  AuthMetadata,
  type AuthMethod,
  type Authentication,
  type CreateTokenResponse,
  type ListAuthenticationMethodsResponse,
  type ListAuthenticationsResponse,
} from '../../domain/flipt/auth.js';
import { FliptError, GrpcCode, invalid, invalidField, notFound, unauthenticated } from '../flipt/errors.js';
import { nowTimestamp } from '../db/codec.js';
import type { AuthRuntime } from './runtime.js';
import { clearSessionCookies } from './cookies.js';
import { storedTimestamp, timestampIn } from './store.js';
import { JwtError } from './jwt.js';
import type { ServiceAccountIdentity } from './kubernetes.js';
import * as v from 'valibot';
import { parse } from '../flipt/routes/http.js';
import { RouteTable } from '../route-definitions.js';

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

/**
 * The path prefix a reverse proxy mounts Ensign under, as Flipt reads it: a path (`/flags`), never a
 * scheme or a host. Anything else (`//evil.example`, `https://...`) is ignored, so a login can never
 * be redirected off the site.
 */
export function forwardedPrefix(request: FastifyRequest): string {
  const prefix = request.headers['x-forwarded-prefix'];
  if (typeof prefix !== 'string' || !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(prefix)) return '';
  return prefix.replace(/\/$/, '');
}

export type AuthOperations = ReturnType<typeof authOperations>;

/**
 * `/auth/v1`'s operations, one function each: the REST routes below and the gRPC services
 * (server/grpc/) call these same functions.
 */
export function authOperations(runtime: AuthRuntime) {
  const { settings, store } = runtime;
  return {
    /**
     * The five methods in Flipt v1.61's order (Cloud went in v1.50.1). GitHub and OIDC always carry their
     * login addresses, as Flipt's do whether or not they are enabled; the others carry no metadata.
     * `prefix` is the reverse proxy's mount path of the addresses.
     */
    listMethods(prefix: string): ListAuthenticationMethodsResponse {
      const urls = (base: string) => ({
        authorize_url: `${prefix}${base}/authorize`,
        callback_url: `${prefix}${base}/callback`,
      });
      const providers = Object.fromEntries(
        Object.keys(settings.oidc.providers).map((name) => [name, urls(`/auth/v1/method/oidc/${name}`)]),
      );
      return {
        methods: [
          { method: 'METHOD_TOKEN', enabled: settings.token.enabled, sessionCompatible: false },
          {
            method: 'METHOD_GITHUB',
            enabled: settings.github.enabled,
            sessionCompatible: true,
            metadata: urls('/auth/v1/method/github'),
          },
          { method: 'METHOD_OIDC', enabled: settings.oidc.enabled, sessionCompatible: true, metadata: { providers } },
          { method: 'METHOD_KUBERNETES', enabled: settings.kubernetes.enabled, sessionCompatible: false },
          { method: 'METHOD_JWT', enabled: settings.jwt.enabled, sessionCompatible: false },
        ],
      };
    },

    /** The caller's identity exists only when enforcement put it there, so with auth off this is 401, as in Flipt. */
    self(authentication: Authentication | undefined): Authentication {
      if (!authentication) throw unauthenticated();
      return authentication;
    },

    /** Expires the caller's authentication now, or at `expiresAt` (RFC 3339) when that is sooner than its expiry. */
    async expireSelf(authentication: Authentication | undefined, expiresAt: string | undefined): Promise<void> {
      const caller = this.self(authentication);
      let at = nowTimestamp();
      if (expiresAt !== undefined && expiresAt !== '') {
        at = storedTimestamp(expiresAt) ?? failTimestamp('expiresAt');
        // Expiring may shorten an authentication's life, never lengthen it.
        const issuedUntil = caller.expiresAt === undefined ? undefined : storedTimestamp(caller.expiresAt);
        if (issuedUntil !== undefined && at > issuedUntil) {
          throw invalid('expiresAt must not be later than the current expiry');
        }
      }
      // A JWT authentication is not stored: there is nothing to expire.
      if (caller.id !== '') await store.expire(caller.id, at);
    },

    async listTokens(query: {
      method?: string;
      limit?: string;
      pageToken?: string;
    }): Promise<ListAuthenticationsResponse> {
      const method = parseMethod(query.method);
      const limit = query.limit === undefined || query.limit === '' ? 0 : parseNumber(query.limit, 'limit');
      const pageSize = limit === 0 ? DEFAULT_PAGE_SIZE : Math.min(limit, MAX_PAGE_SIZE);
      let offset = 0;
      if (query.pageToken !== undefined && query.pageToken !== '') {
        if (!/^\d+$/.test(query.pageToken)) throw invalid(`pageToken is not valid: "${query.pageToken}"`);
        offset = Number(query.pageToken);
      }
      const page = await store.list({ method, limit: pageSize, offset });
      return { authentications: page.authentications, nextPageToken: page.hasMore ? String(offset + pageSize) : '' };
    },

    async getToken(id: string): Promise<Authentication> {
      const authentication = await store.byId(id);
      if (!authentication) throw notFound(`authentication "${id}"`);
      return authentication;
    },

    async deleteToken(id: string): Promise<Record<string, never>> {
      await store.delete(id);
      return {};
    },

    /**
     * The Kubernetes method: a verified service-account token buys a client token that expires with it, carrying
     * the workload's namespace, pod and service account. A refused token is 401 with the reason.
     */
    async verifyServiceAccount(sent: unknown): Promise<CreateTokenResponse> {
      const body = (sent ?? {}) as Record<string, unknown>;
      const token = body.serviceAccountToken ?? body.service_account_token;
      if (typeof token !== 'string' || token === '') throw invalidField('serviceAccountToken', 'must not be empty');
      let identity: ServiceAccountIdentity;
      try {
        identity = await runtime.kubernetes!.verify(token);
      } catch (error) {
        if (!(error instanceof JwtError)) throw error;
        throw new FliptError(GrpcCode.Unauthenticated, `verifying service account: ${error.message}`);
      }
      return store.create({
        method: 'METHOD_KUBERNETES',
        metadata: identity.metadata,
        expiresAt: timestampIn(identity.expiresAt * 1000 - Date.now()),
      });
    },

    /** A static token (the token method, when enabled): its clear text is only ever in this answer. */
    createToken(sent: unknown): Promise<CreateTokenResponse> {
      const body = (sent ?? {}) as Record<string, unknown>;
      const text = (field: string, value: unknown): string => {
        if (value === undefined || value === null) return '';
        if (typeof value !== 'string') throw invalidField(field, 'must be a string');
        return value;
      };
      const name = text('name', body.name);
      if (name.trim() === '') throw invalidField('name', 'must not be empty');
      const description = text('description', body.description);
      const namespaceKey = text('namespaceKey', body.namespaceKey ?? body.namespace_key);
      const expiresAtText = text('expiresAt', body.expiresAt ?? body.expires_at);
      const expiresAt =
        expiresAtText === '' ? undefined : (storedTimestamp(expiresAtText) ?? failTimestamp('expiresAt'));
      const metadata: Record<string, string> = {};
      if (body.metadata !== undefined && body.metadata !== null) {
        if (typeof body.metadata !== 'object' || Array.isArray(body.metadata))
          throw invalidField('metadata', 'must be an object');
        for (const [key, value] of Object.entries(body.metadata)) metadata[key] = text(`metadata.${key}`, value);
      }
      metadata[AuthMetadata.tokenName] = name;
      if (description !== '') metadata[AuthMetadata.tokenDescription] = description;
      if (namespaceKey !== '') metadata[AuthMetadata.tokenNamespace] = namespaceKey;
      return store.create({ method: 'METHOD_TOKEN', metadata, expiresAt });
    },
  };
}

/** `/auth/v1`: the method list, the caller's own authentication, token management. */
export async function authRoutes(app: FastifyInstance, runtime: AuthRuntime): Promise<void> {
  const ops = authOperations(runtime);

  const routes = new RouteTable(app, parse);
  const text = v.optional(v.string());
  routes.add({
    method: 'GET',
    url: '/auth/v1/method',
    protection: 'public',
    handler: (_input, request) => ops.listMethods(forwardedPrefix(request)),
  });
  routes.add({ method: 'GET', url: '/auth/v1/self', handler: (_input, request) => ops.self(request.authentication) });
  routes.add({
    method: 'PUT',
    url: '/auth/v1/self/expire',
    query: v.object({ expiresAt: text }),
    handler: async ({ query }, request, reply) => {
      await ops.expireSelf(request.authentication, query.expiresAt);
      clearSessionCookies(reply, runtime.settings);
      return {};
    },
  });
  routes.add({
    method: 'GET',
    url: '/auth/v1/tokens',
    query: v.object({ method: text, limit: text, pageToken: text }),
    handler: ({ query }) => ops.listTokens(query),
  });
  const token = v.object({ id: v.string() });
  routes.add({
    method: 'GET',
    url: '/auth/v1/tokens/:id',
    params: token,
    handler: ({ params }) => ops.getToken(params.id),
  });
  routes.add({
    method: 'DELETE',
    url: '/auth/v1/tokens/:id',
    params: token,
    handler: ({ params }) => ops.deleteToken(params.id),
  });

  if (runtime.settings.token.enabled) {
    routes.add({ method: 'POST', url: '/auth/v1/method/token', handler: ({ body }) => ops.createToken(body) });
  }
  if (runtime.kubernetes) {
    routes.add({
      method: 'POST',
      url: '/auth/v1/method/kubernetes/serviceaccount',
      protection: 'public',
      handler: ({ body }) => ops.verifyServiceAccount(body),
    });
  }
}

function failTimestamp(field: string): never {
  throw invalidField(field, 'must be an RFC 3339 timestamp such as 2030-01-02T15:04:05Z');
}

function parseNumber(value: string, field: string): number {
  if (!/^\d+$/.test(value)) throw invalidField(field, 'must be a non-negative integer');
  return Number(value);
}

function parseMethod(value: string | undefined): AuthMethod | undefined {
  if (value === undefined || value === '' || value === 'METHOD_NONE' || value === '0') return undefined;
  const method = /^\d+$/.test(value) ? AUTH_METHODS[Number(value)] : AUTH_METHODS.find((name) => name === value);
  if (!method) throw invalidField('method', `must be one of ${AUTH_METHODS.join(', ')}`);
  return method;
}
