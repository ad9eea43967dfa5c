import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type * as v from 'valibot';
import { protectedAs, type Protection } from './auth/enforce.js';

/** Checks one part of a request against its schema, or throws the area's 400 (Flipt's or Formbricks' shape). */
export type InputParser = <S extends v.GenericSchema>(schema: S, input: unknown) => v.InferOutput<S>;

/** A part's checked value; a part the route declares no schema for is passed on as sent. */
type Checked<S> = S extends v.GenericSchema ? v.InferOutput<S> : unknown;

export interface RouteInput<P, Q, B> {
  params: Checked<P>;
  query: Checked<Q>;
  body: Checked<B>;
}

export interface RouteDefinition<P, Q, B, L> {
  method: HTTPMethods;
  url: string;
  /** The route's own protection; without one, its scope's (`protectRoutes`). */
  protection?: Protection;
  exposeHeadRoute?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * What the route acts on, found from the checked path and query before the body is checked: a
   * missing one (404) or a refused write answers before a bad body (400).
   */
  load?: (input: Omit<RouteInput<P, Q, B>, 'body'>, request: FastifyRequest) => L | Promise<L>;
  handler: (input: RouteInput<P, Q, B> & { loaded: L }, request: FastifyRequest, reply: FastifyReply) => unknown;
}

/** A handler written apart from its route's definition: its input's params, query and body are those schemas'. */
export type RouteHandler<P = undefined, Q = undefined, B = undefined, L = undefined> = RouteDefinition<
  P,
  Q,
  B,
  L
>['handler'];

/**
 * An area's routes, declared with the schemas of their inputs: the path parameters, the query, `load`
 * and the body are checked in that order before the handler runs, each failure in the area's shape.
 */
export class RouteTable {
  constructor(
    readonly app: FastifyInstance,
    private readonly parse: InputParser,
  ) {}

  add<
    P extends v.GenericSchema | undefined,
    Q extends v.GenericSchema | undefined,
    B extends v.GenericSchema | undefined,
    L = undefined,
  >(definition: RouteDefinition<P, Q, B, L>): void {
    const { method, url, protection, exposeHeadRoute, params, query, body, load, handler } = definition;
    const check = <S>(schema: S | undefined, value: unknown) =>
      (schema === undefined ? value : this.parse(schema as v.GenericSchema, value)) as Checked<S>;
    this.app.route({
      method,
      url,
      ...(protection && protectedAs(protection)),
      ...(exposeHeadRoute !== undefined && { exposeHeadRoute }),
      handler: async (request, reply) => {
        const located = { params: check<P>(params, request.params), query: check<Q>(query, request.query) };
        const loaded = (load ? await load(located, request) : undefined) as L;
        return handler({ ...located, body: check<B>(body, request.body), loaded }, request, reply);
      },
    });
  }
}
