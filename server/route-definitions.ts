import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type * as v from 'valibot';
import type { Protection } from './auth/enforce.js';
import { answers, type ErrorLog, type HttpAnswer } from './http/answer.js';
import type { LimitedKind } from './rate-limits.js';

/** Checks one part of a request against its schema, or throws the area's 400 (Flipt's or Formbricks' shape). */
export type InputParser = <S extends v.GenericSchema>(schema: S, input: unknown) => v.InferOutput<S>;

/** A part's checked value; a part the route declares no schema for is passed on as sent. */
type Checked<S> = S extends v.GenericSchema ? v.InferOutput<S> : unknown;

export interface RouteInput<P, Q, B> {
  params: Checked<P>;
  query: Checked<Q>;
  body: Checked<B>;
}

interface RouteShape<P, Q, B> {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  /** The route's own protection; without one, its scope's (`protectRoutes`). */
  protection?: Protection;
  exposeHeadRoute?: boolean;
  params?: P;
  query?: Q;
  body?: B;
}

export interface PlainRouteDefinition<P, Q, B, L> extends RouteShape<P, Q, B> {
  hot?: false;
  /**
   * What the route acts on, found from the checked path and query before the body is checked: a
   * missing one (404) or a refused write answers before a bad body (400).
   */
  load?: (input: Omit<RouteInput<P, Q, B>, 'body'>, request: FastifyRequest) => L | Promise<L>;
  handler: (input: RouteInput<P, Q, B> & { loaded: L }, request: FastifyRequest, reply: FastifyReply) => unknown;
}

/** What a hot route's handler may read of the request besides its checked inputs, on either path. */
export interface HotRequest {
  headers: IncomingHttpHeaders;
  /**
   * On Fastify's path, counts the request against the kind's limit (a sync that creates a person);
   * undefined on the hot path, where a handler that would need it answers `HAND_OVER`.
   */
  countAgainst?: (kind: LimitedKind) => Promise<void>;
  /** True on the hot path, which answers only from what is at hand. */
  onHotPath: boolean;
}

/** A hot route's answer on the hot path when only Fastify's route can give it (it needs a read or a write); GET routes only. */
export const HAND_OVER = Symbol('hand over to Fastify');

export type HotAnswer = HttpAnswer | typeof HAND_OVER;

export type HotHandler<P, Q, B> = (input: RouteInput<P, Q, B>, request: HotRequest) => HotAnswer | Promise<HotAnswer>;

/**
 * A route also answered straight from `node:http`, ahead of Fastify (server/http/hot-path.ts), whenever
 * no hook would run on it: its handler returns the whole answer, which one writer sends on both paths.
 */
export interface HotRouteDefinition<P, Q, B> extends RouteShape<P, Q, B> {
  method: HTTPMethods;
  hot: true;
  handler: HotHandler<P, Q, B>;
}

export type RouteDefinition<P, Q, B, L> = PlainRouteDefinition<P, Q, B, L> | HotRouteDefinition<P, Q, B>;

/** A handler written apart from its route's definition: its input's params, query and body are those schemas'. */
export type RouteHandler<P = undefined, Q = undefined, B = undefined, L = undefined> = PlainRouteDefinition<
  P,
  Q,
  B,
  L
>['handler'];

/** How an area answers on the hot path what Fastify's scope would: its errors, its body parsing, its reshaping hooks. */
export interface HotScope {
  /** The area's error answer, the one its Fastify routes give too; without it, a GET that fails is handed to Fastify. */
  errorAnswer?: (error: Error, params: unknown, log: ErrorLog) => HttpAnswer;
  /** The body's text as the scope's content-type parser reads it; routes with a body need it. */
  readBody?: (text: string) => unknown;
  /** Requests whose answer a hook of the scope reshapes (`?pretty`): they take Fastify's path. */
  reshapes?: (request: IncomingMessage) => boolean;
  /** Whether `cors.enabled` adds browser CORS to the scope's answers (then they take Fastify's path). */
  browserCors?: boolean;
}

/** What the hot path takes from a hot route's definition (it rides in the route's `config.hot`). */
export interface HotTwin extends HotScope {
  /** The route's URL declares a query schema: a plain query string is then read, else one sends the request to Fastify. */
  readsQuery: boolean;
  readsBody: boolean;
  /** Checks the raw inputs (each path parameter a plain key) and answers as the Fastify route would. */
  answer(raw: RawInput, request: HotRequest): HotAnswer | Promise<HotAnswer>;
}

/** A request's parts before they are checked: the path parameters, the parsed query string, the parsed body. */
export interface RawInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A hot route's twin, for the hot path (server/http/hot-path.ts) to take when no hook forbids it. */
    hot?: HotTwin;
    /** Set on every route a RouteTable adds: the route scan refuses routes registered any other way. */
    declared?: true;
  }
}

/**
 * An area's routes, declared with the schemas of their inputs: the path parameters, the query, `load`
 * and the body are checked in that order before the handler runs, each failure in the area's shape.
 * Every route of the server is added through a table (the route scan test refuses others).
 */
export class RouteTable {
  constructor(
    readonly app: FastifyInstance,
    private readonly parse: InputParser,
    private readonly hotScope: HotScope = {},
  ) {}

  add<
    P extends v.GenericSchema | undefined,
    Q extends v.GenericSchema | undefined,
    B extends v.GenericSchema | undefined,
    L = undefined,
  >(definition: RouteDefinition<P, Q, B, L>): void {
    if (definition.hot) {
      this.addHot(definition);
      return;
    }
    const { method, url, protection, exposeHeadRoute, params, query, body, load, handler } = definition;
    this.app.route({
      method,
      url,
      config: { declared: true, ...(protection && { protection }) },
      ...(exposeHeadRoute !== undefined && { exposeHeadRoute }),
      handler: async (request, reply) => {
        const located = { params: this.check<P>(params, request.params), query: this.check<Q>(query, request.query) };
        const loaded = (load ? await load(located, request) : undefined) as L;
        return handler({ ...located, body: this.check<B>(body, request.body), loaded }, request, reply);
      },
    });
  }

  private addHot<P, Q, B>(definition: HotRouteDefinition<P, Q, B>): void {
    const { method, url, protection, exposeHeadRoute, params, query, body, handler } = definition;
    const readsBody = method !== 'GET';
    if (readsBody && !(this.hotScope.errorAnswer && this.hotScope.readBody))
      throw new Error(`hot route ${method} ${url}: its scope gives no error answer and body parser for the hot path`);
    const answer = (raw: RawInput, request: HotRequest) =>
      handler(
        {
          params: this.check<P>(params, raw.params),
          query: this.check<Q>(query, raw.query),
          body: this.check<B>(body, raw.body),
        },
        request,
      );
    const { errorAnswer } = this.hotScope;
    this.app.route({
      method,
      url,
      config: {
        declared: true,
        ...(protection && { protection }),
        hot: { ...this.hotScope, readsQuery: query !== undefined, readsBody, answer },
      },
      ...(exposeHeadRoute !== undefined && { exposeHeadRoute }),
      ...(errorAnswer && {
        errorHandler: (error, request, reply) => answers.send(reply, errorAnswer(error, request.params, request.log)),
      }),
      handler: async (request, reply) => {
        const answered = await answer(
          { params: request.params, query: request.query, body: request.body },
          {
            headers: request.headers,
            onHotPath: false,
            countAgainst: (kind) => request.server.countAgainst(kind, request, reply),
          },
        );
        if (answered === HAND_OVER) throw new Error(`${method} ${url} handed over on Fastify's own path`);
        return answers.send(reply, answered);
      },
    });
  }

  private check<S>(schema: S | undefined, value: unknown): Checked<S> {
    return (schema === undefined ? value : this.parse(schema as v.GenericSchema, value)) as Checked<S>;
  }
}

type Schema = v.GenericSchema | undefined;

/**
 * A route definition in a surface's list: its input types were checked where it was written, with
 * `route`, so the list can hold routes of different inputs.
 */
// biome-ignore lint/suspicious/noExplicitAny: the list forgets each route's input types once `route` has checked them
export type ListedRoute = RouteDefinition<any, any, any, any>;

/** Checks a definition's handler against its schemas and loader, for a list of routes. */
export function route<P extends Schema, Q extends Schema, B extends Schema, L = undefined>(
  definition: RouteDefinition<P, Q, B, L>,
): ListedRoute {
  return definition as ListedRoute;
}

/** Registers a surface's routes on an area's table. */
export function addRoutes(table: RouteTable, routes: readonly ListedRoute[]): void {
  for (const definition of routes) table.add(definition);
}
