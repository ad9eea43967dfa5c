import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import type { RateLimits } from './config/index.js';

/** The kinds of routes that have a limit of their own (`server.rate_limits`). */
export type LimitedKind = 'login' | 'tokenCreation' | 'surveyUploads' | 'surveyWrites' | 'evaluation';

const LOGIN = /^\/auth\/v1\/method\/((oidc\/:[^/]+|github)\/(authorize|callback)|kubernetes\/serviceaccount)$/;
const SURVEY_UPLOAD = /^\/api\/v[12]\/client\/:[^/]+\/storage(\/local)?$/;
const SURVEY_WRITE = /^\/api\/v[12]\/client\/:[^/]+\/(displays|responses|actions|people|user)(\/:[^/]+)?$/;
const EVALUATION =
  /^\/(evaluate\/v1\/[^/]+|api\/v1\/(namespaces\/:[^/]+\/)?(batch-)?evaluate|internal\/v1\/evaluation\/snapshot\/.+|ofrep\/v1\/.+)$/;

/** Which limit a route (method and registered pattern) counts against, if any. */
export function limitedKindOf(method: string, url: string): LimitedKind | undefined {
  if (method === 'HEAD' || method === 'OPTIONS') return undefined;
  if (LOGIN.test(url)) return 'login';
  if (method === 'POST' && url === '/auth/v1/method/token') return 'tokenCreation';
  if (method === 'POST' && SURVEY_UPLOAD.test(url)) return 'surveyUploads';
  if ((method === 'POST' || method === 'PUT') && SURVEY_WRITE.test(url)) return 'surveyWrites';
  if (EVALUATION.test(url)) return 'evaluation';
  return undefined;
}

export const describeWindow = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts the request against the kind's limit now, for a route that only sometimes does what the kind limits
     * (an identified sync that creates a person); throws the 429 beyond it. Nothing when the kind has no limit.
     */
    countAgainst(kind: LimitedKind, request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyContextConfig {
    /** The limit the route counts against, set as it is added (`installRateLimits`). */
    limitedKind?: LimitedKind;
  }
}

/**
 * Limits requests per client address (in this process's memory) on the routes `limitedKindOf` names:
 * one count per kind and address, shared by all the kind's routes (docs/operations.md); a kind set to 0
 * is not limited. Must be installed before the routes are registered: it marks each one as it is
 * added. Beyond the limit the answer is 429 with `Retry-After`, in the shape of the scope's other errors.
 */
export async function installRateLimits(app: FastifyInstance, limits: RateLimits): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      Object.assign(
        new Error(
          `too many requests from this address: at most ${context.max} per ${describeWindow(limits.windowMs)}, retry in ${context.after}`,
        ),
        { statusCode: 429 },
      ),
  });
  // A route's own `config.rateLimit` would get a store of its own, counted apart from the kind's other routes.
  const limiters = new Map<LimitedKind, onRequestHookHandler>();
  for (const kind of ['login', 'tokenCreation', 'surveyUploads', 'surveyWrites', 'evaluation'] as const) {
    if (limits[kind] > 0)
      limiters.set(kind, app.rateLimit({ max: limits[kind], timeWindow: limits.windowMs }) as onRequestHookHandler);
  }
  app.decorate('countAgainst', async function (this: FastifyInstance, kind, request, reply) {
    await limiters.get(kind)?.call(this, request, reply, () => {});
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const kind = methods.map((method) => limitedKindOf(method, route.url)).find(Boolean);
    const limiter = kind && limiters.get(kind);
    if (!limiter) return;
    route.config = { ...route.config, limitedKind: kind };
    route.onRequest = [...[route.onRequest ?? []].flat(), limiter];
  });
}
