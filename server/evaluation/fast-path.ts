import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { FliptError } from '../flipt/errors.js';
import { parseJsonBody } from '../json-body.js';
import type { Metrics } from '../metrics.js';
import { withDefaultHeaders } from '../security-headers.js';
import type { Tracing } from '../tracing.js';

/** Answers a parsed request body with JSON: synchronously when it can (no promise on the hot path), else with a promise. */
export type FastHandler = (body: unknown, request: FastRequest) => string | Promise<string>;

/** What a handler may read of the request besides its body. */
export interface FastRequest {
  /** For a prefix route, the key the path names after the prefix; '' otherwise. */
  key: string;
  headers: IncomingHttpHeaders;
}

interface FastRoute {
  handler: FastHandler;
  /** Rewrites an error before it is answered (a route with its own error shape); errors are answered as they are by default. */
  answerError?: (error: FliptError, request: FastRequest) => FliptError;
}

/**
 * A GET answered from memory, or after reads (a promise), or undefined to hand the request to Fastify
 * (what it needs is not in memory). A promise that fails hands the request to Fastify too, whose route
 * reads again and answers the error in its API's shape.
 */
/** An answer, or undefined (at once or as the promise's value) to hand the request to Fastify. */
export type FastGetHandler = (request: FastGetRequest) => FastAnswer | Promise<FastAnswer | undefined> | undefined;

export interface FastGetRequest {
  /** The path parameters the route's pattern names, each a plain key. */
  params: Record<string, string>;
  /** The query string without its `?`; '' when there is none. */
  query: string;
  headers: IncomingHttpHeaders;
}

export interface FastAnswer {
  status: number;
  /** Flat name/value pairs, as `writeHead` takes them. */
  headers: string[];
  body?: Buffer;
}

interface FastGetRoute {
  /** The route's pattern, as metrics and traces name it. */
  pattern: string;
  /** The pattern's path segments; a parameter's starts with `:`. */
  segments: string[];
  handler: FastGetHandler;
}

/** The keys a prefix route takes: Flipt's key characters; anything else (percent-encoding, slashes, a query) goes to Fastify. */
const PLAIN_KEY = /^[-_,A-Za-z0-9]+$/;

/**
 * The hot path: single-flag evaluations answered straight from `node:http`, ahead of Fastify's
 * request pipeline, which on its own costs more than half of the throughput here (bench/http).
 * Only exact POSTs to the registered paths (or to a registered prefix and a plain key) are taken, and only while no hook would have to run on
 * them (the evaluation plugin registers nothing when authentication or CSRF guards evaluation);
 * everything else, including `?pretty` (or its Accept header), trailing slashes and requests during shutdown, goes to
 * Fastify, whose routes for the same paths call the same handlers. GET routes (the widget's anonymous sync)
 * answer only what is in memory and hand everything else to Fastify.
 * A body in one chunk (the usual case) is decoded without copying. Each answer is counted in the
 * HTTP metrics, traced and logged at debug level, as Fastify's routes are.
 */
export class FastPath {
  private readonly routes = new Map<string, FastRoute>();
  private readonly prefixRoutes: [prefix: string, route: FastRoute][] = [];
  private readonly getRoutes: FastGetRoute[] = [];
  private open = true;
  private readonly logRequests: boolean;

  constructor(
    private readonly bodyLimit: number,
    private readonly log: FastifyBaseLogger,
    private readonly metrics?: Metrics,
    private readonly tracing?: Tracing,
    /** Helmet's headers (server/security-headers.ts), which every answer here carries as Fastify's do. */
    private readonly securityHeaders: readonly string[] = [],
  ) {
    this.logRequests = log.level === 'debug' || log.level === 'trace';
  }

  add(path: string, handler: FastHandler, answerError?: FastRoute['answerError']): void {
    this.routes.set(path, { handler, answerError });
  }

  /**
   * A GET of `pattern`, a path with parameters (`/api/v1/client/:environmentId/in-app/sync`) that each
   * take a plain key, whatever the query string.
   */
  addGet(pattern: string, handler: FastGetHandler): void {
    this.getRoutes.push({ pattern, segments: pattern.split('/'), handler });
  }

  /** A route for `prefix` followed by a key (`/ofrep/v1/evaluate/flags/{key}`). */
  addPrefix(prefix: string, handler: FastHandler, answerError?: FastRoute['answerError']): void {
    this.prefixRoutes.push([prefix, { handler, answerError }]);
  }

  close(): void {
    this.open = false;
  }

  /** Answers the request if it is one of ours; false hands it on. `fallback` (Fastify) answers a GET whose reads failed. */
  handle(request: IncomingMessage, response: ServerResponse, fallback: RequestListener): boolean {
    if (!this.open) return false;
    if (request.method === 'GET') return this.getRoutes.length > 0 && this.handleGet(request, response, fallback);
    if (request.method !== 'POST') return false;
    const url = request.url!;
    let route = this.routes.get(url);
    let key = '';
    // The route's pattern names it in metrics and traces (a key in the path would make a series per flag).
    let pattern = url;
    if (!route) {
      for (const [prefix, candidate] of this.prefixRoutes) {
        if (url.startsWith(prefix) && PLAIN_KEY.test(url.slice(prefix.length))) {
          route = candidate;
          key = url.slice(prefix.length);
          pattern = `${prefix}:key`;
        }
      }
    }
    if (!route || request.headers.accept?.includes('application/json+pretty')) return false;
    const { handler, answerError } = route;
    const fastRequest: FastRequest = { key, headers: request.headers };
    const started = performance.now();
    this.tracing?.routed(request, 'POST', pattern);
    const answer = (status: number, json: string) => {
      send(response, status, json, this.securityHeaders);
      const seconds = (performance.now() - started) / 1000;
      this.metrics?.answered('POST', pattern, status, seconds);
      if (this.logRequests) this.log.debug({ method: 'POST', url, status, ms: seconds * 1000 }, 'request');
    };
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= this.bodyLimit) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > this.bodyLimit) {
        answer(
          413,
          JSON.stringify({
            code: 8,
            message: `request body is too large (the limit is ${this.bodyLimit} bytes)`,
            details: [],
          }),
        );
        return;
      }
      const body = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
      const fail = (error: unknown) => {
        if (error instanceof FliptError) {
          const answered = answerError ? answerError(error, fastRequest) : error;
          return answer(answered.httpStatus, JSON.stringify(answered.toJSON()));
        }
        // Fastify's routes log with a request id; this path has none until something goes wrong.
        this.log.error({ err: error, reqId: randomUUID(), url }, 'evaluation failed');
        answer(500, JSON.stringify({ code: 13, message: 'internal error', details: [] }));
      };
      try {
        const json = handler(parseJsonBody(body), fastRequest);
        if (json instanceof Promise) json.then((settled) => answer(200, settled), fail);
        else answer(200, json);
      } catch (error) {
        fail(error);
      }
    });
    return true;
  }

  private handleGet(request: IncomingMessage, response: ServerResponse, fallback: RequestListener): boolean {
    const url = request.url!;
    const question = url.indexOf('?');
    const segments = (question < 0 ? url : url.slice(0, question)).split('/');
    for (const route of this.getRoutes) {
      const params = paramsOf(route.segments, segments);
      if (!params) continue;
      const started = performance.now();
      const answer = route.handler({
        params,
        query: question < 0 ? '' : url.slice(question + 1),
        headers: request.headers,
      });
      if (!answer) return false;
      this.tracing?.routed(request, 'GET', route.pattern);
      const sendAnswer = ({ status, headers, body }: FastAnswer) => {
        request.resume();
        response.writeHead(status, withDefaultHeaders(headers, this.securityHeaders));
        response.end(body);
        const seconds = (performance.now() - started) / 1000;
        this.metrics?.answered('GET', route.pattern, status, seconds);
        if (this.logRequests) this.log.debug({ method: 'GET', url, status, ms: seconds * 1000 }, 'request');
      };
      if (answer instanceof Promise) {
        answer.then(
          (settled) => (settled ? sendAnswer(settled) : fallback(request, response)),
          () => fallback(request, response),
        );
      } else sendAnswer(answer);
      return true;
    }
    return false;
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

function send(response: ServerResponse, status: number, json: string, securityHeaders: readonly string[]): void {
  response.writeHead(status, [
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(json)),
    ...securityHeaders,
  ]);
  response.end(json);
}
