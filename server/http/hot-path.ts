import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { authenticationHooksInstalled } from '../auth/settings.js';
import type { Config } from '../config/index.js';
import type { Metrics } from '../metrics.js';
import { HAND_OVER, type HotAnswer, type HotRequest, type HotTwin } from '../route-definitions.js';
import type { Tracing } from '../tracing.js';
import { answers, BODY_LIMIT, type HttpAnswer } from './answer.js';

/** Path parameters the hot path takes: Flipt's key characters; anything else (percent-encoding) goes to Fastify, which decodes it. */
const PLAIN_KEY = /^[-_,A-Za-z0-9]+$/;
/** Query strings the hot path reads: plain `name=value` pairs; anything to decode goes to Fastify. */
const PLAIN_QUERY = /^[-_.A-Za-z0-9]+(=[-_.,A-Za-z0-9]*)?(&[-_.A-Za-z0-9]+(=[-_.,A-Za-z0-9]*)?)*$/;

/** Content types the hot path reads (any other, Fastify may refuse as malformed, 415): `type/subtype`, perhaps with a charset. */
const PLAIN_CONTENT_TYPE = /^[a-z]+\/[-+.a-z0-9]+(\s*;\s*charset=[-a-z0-9]+)?$/i;

interface HotRoute {
  method: HTTPMethods;
  /** The route's URL as registered, as metrics and traces name it. */
  pattern: string;
  /** The pattern's path segments; a parameter's starts with `:`. */
  segments: string[];
  twin: HotTwin;
}

/**
 * Why a hot route's twin may not answer with this configuration, or undefined when it may: the one
 * place that knows which hooks and settings only Fastify's pipeline honours (a rate limit marked on the
 * route, authentication or CSRF hooks on a guarded route, browser CORS).
 */
export function slowPathReason(route: RouteOptions, config: Config): string | undefined {
  if (route.config?.limitedKind) return `the ${route.config.limitedKind} rate limit`;
  if (route.config?.protection !== 'public' && authenticationHooksInstalled(config)) return 'authentication';
  if (route.config?.hot?.browserCors && config.cors.enabled) return 'CORS';
  return undefined;
}

/**
 * The hot path: the routes declared `hot: true` (server/route-definitions.ts) answered straight from
 * `node:http`, ahead of Fastify's request pipeline, which on its own costs more than half of the
 * throughput of an evaluation (bench/http). It takes only requests Fastify would answer the same way
 * without running a hook: an exact path whose parameters are plain keys, a plain query string where the
 * route reads one (no query otherwise), a plain content type, nothing the scope reshapes (`?pretty`). Inputs are checked by
 * the route's own schemas, errors answered in its scope's shape, answers written by the one writer
 * (security headers included), counted in the HTTP metrics, traced and logged as Fastify's are.
 * Everything else, a GET whose handler hands it over, and requests during shutdown go to Fastify.
 */
export class HotPath {
  /** Routes without parameters, by method and path. */
  private readonly exact = new Map<string, HotRoute>();
  private readonly parameterised: HotRoute[] = [];
  /** Off during shutdown, and where a test compares the two paths of each hot route. */
  enabled = true;
  private readonly logRequests: boolean;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly metrics?: Metrics,
    private readonly tracing?: Tracing,
  ) {
    this.logRequests = log.level === 'debug' || log.level === 'trace';
  }

  /** Installs the onRoute hook that takes every hot route as it is registered, unless `slowPathReason` forbids it. */
  install(app: FastifyInstance, config: Config): void {
    app.addHook('onRoute', (route) => {
      const twin = route.config?.hot;
      if (!twin || slowPathReason(route, config)) return;
      const method = [route.method].flat()[0] as HTTPMethods;
      const hot = { method, pattern: route.url, segments: route.url.split('/'), twin };
      if (route.url.includes(':')) this.parameterised.push(hot);
      else this.exact.set(`${method} ${route.url}`, hot);
    });
    app.addHook('preClose', (done) => {
      this.enabled = false;
      done();
    });
  }

  /** Answers the request if it is one of ours; false hands it to `fallback` (Fastify), as does a GET handed over later. */
  handle(request: IncomingMessage, response: ServerResponse, fallback: RequestListener): boolean {
    if (!this.enabled) return false;
    const url = request.url!;
    const question = url.indexOf('?');
    const path = question < 0 ? url : url.slice(0, question);
    let route = this.exact.get(`${request.method} ${path}`);
    let params: Record<string, string> = {};
    if (!route) {
      const segments = path.split('/');
      for (const candidate of this.parameterised) {
        const matched = candidate.method === request.method && paramsOf(candidate.segments, segments);
        if (matched) {
          route = candidate;
          params = matched;
          break;
        }
      }
    }
    if (!route) return false;
    const { twin } = route;
    const queryText = question < 0 ? '' : url.slice(question + 1);
    if (queryText !== '' && !(twin.readsQuery && PLAIN_QUERY.test(queryText))) return false;
    if (twin.reshapes?.(request)) return false;
    const contentType = request.headers['content-type'];
    if (twin.readsBody && contentType !== undefined && !PLAIN_CONTENT_TYPE.test(contentType)) return false;
    const query = queryText === '' ? {} : Object.fromEntries(new URLSearchParams(queryText));
    if (!twin.readsBody) {
      request.resume();
      this.run(route, request, response, fallback, { params, query, body: undefined }, performance.now());
      return true;
    }
    this.readBody(route, request, response, fallback, params, query);
    return true;
  }

  private readBody(
    route: HotRoute,
    request: IncomingMessage,
    response: ServerResponse,
    fallback: RequestListener,
    params: Record<string, string>,
    query: Record<string, string>,
  ): void {
    const started = performance.now();
    const { headers } = request;
    // As Fastify: no Content-Type and no length is no body; anything else goes through the scope's parser.
    const bodyless =
      headers['content-type'] === undefined &&
      (headers['content-length'] === undefined || headers['content-length'] === '0') &&
      headers['transfer-encoding'] === undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > BODY_LIMIT) {
        const tooLarge = Object.assign(new Error('Request body is too large'), { statusCode: 413 });
        return this.finish(route, request, response, started, route.twin.errorAnswer!(tooLarge, params, this.log));
      }
      let body: unknown;
      try {
        body = bodyless
          ? undefined
          : route.twin.readBody!((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'));
      } catch (error) {
        return this.finish(
          route,
          request,
          response,
          started,
          route.twin.errorAnswer!(error as Error, params, this.log),
        );
      }
      this.run(route, request, response, fallback, { params, query, body }, started);
    });
  }

  private run(
    route: HotRoute,
    request: IncomingMessage,
    response: ServerResponse,
    fallback: RequestListener,
    raw: { params: Record<string, string>; query: Record<string, string>; body: unknown },
    started: number,
  ): void {
    const { twin } = route;
    const settle = (answer: HotAnswer) => {
      if (answer !== HAND_OVER) return this.finish(route, request, response, started, answer);
      if (twin.readsBody) throw new Error(`${route.method} ${route.pattern} handed over a request whose body it read`);
      fallback(request, response);
    };
    const fail = (error: unknown) => {
      if (twin.errorAnswer)
        return this.finish(route, request, response, started, twin.errorAnswer(error as Error, raw.params, this.log));
      // No error shape of its own: Fastify's route reads again and answers in its API's shape.
      fallback(request, response);
    };
    const hotRequest: HotRequest = { headers: request.headers, onHotPath: true };
    try {
      const answer = twin.answer(raw, hotRequest);
      if (answer instanceof Promise) answer.then(settle, fail);
      else settle(answer);
    } catch (error) {
      fail(error);
    }
  }

  private finish(
    route: HotRoute,
    request: IncomingMessage,
    response: ServerResponse,
    started: number,
    answer: HttpAnswer,
  ): void {
    this.tracing?.routed(request, route.method, route.pattern);
    answers.write(response, answer);
    const seconds = (performance.now() - started) / 1000;
    this.metrics?.answered(route.method, route.pattern, answer.status, seconds);
    if (this.logRequests) {
      this.log.debug({ method: route.method, url: request.url, status: answer.status, ms: seconds * 1000 }, 'request');
    }
  }
}

/** The parameters of a path that matches the pattern's segments, each a plain key; undefined when it does not match. */
function paramsOf(pattern: string[], path: string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(':')) {
      if (!PLAIN_KEY.test(path[i])) return undefined;
      params[pattern[i].slice(1)] = path[i];
    } else if (pattern[i] !== path[i]) return undefined;
  }
  return params;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's hot path, which answers its hot routes ahead of Fastify. */
    hotPath: HotPath;
  }
}
