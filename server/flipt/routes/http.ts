import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import * as v from 'valibot';
import { parseRequest } from '../../../domain/flipt/schemas.js';
import { DEFAULT_NAMESPACE } from '../../../domain/flipt/types.js';
import { FliptError, GrpcCode, invalid } from '../errors.js';
import { type HotScope, RouteTable } from '../../route-definitions.js';
import { fliptErrorAnswer } from '../../http/answer.js';
import { parseJsonBody } from '../../json-body.js';

/**
 * A request message of Flipt's management API, in its JSON form (camelCase fields): the REST routes
 * build it from the body or query and the path, the gRPC service decodes it from protobuf.
 */
export type FliptMessage = Record<string, unknown>;

/** Parses a request against a schema, or throws Flipt's 400 naming the problem. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = parseRequest(schema, input);
  if (!result.success) throw invalid(result.message);
  return result.output;
}

/** The names of a route's path parameters: `/flags/:flagKey/variants/:id` has `flagKey` and `id`. */
type ParamNames<Url extends string> = Url extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Url extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<Url extends string> = { [Name in ParamNames<Url>]: string };

/** What a Flipt handler receives, checked and built before it runs. */
export interface FliptInput<Params> {
  params: Params;
  /** The namespace in the path; the legacy routes have none and mean "default". */
  namespaceKey: string;
  query: Record<string, unknown>;
  /**
   * The message of a read or a delete: the query and path parameters (and `key`, when the route names
   * the parameter it is), in the namespace of the path, never one named in the query.
   */
  read: FliptMessage;
  /**
   * The message as Flipt's gateway builds it: the JSON body (for GET and DELETE, the query), then the
   * path parameters (and `key`) written over it. A body that is not an object is passed on as it is,
   * for the operation's own 400.
   */
  message: unknown;
}

type Handler<Params> = (input: FliptInput<Params>, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

interface FliptRouteOptions<Url extends string> {
  /** The path parameter that is the message's `key` (`flagKey` on `/flags/:flagKey`). */
  key?: ParamNames<Url>;
}

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const NAMESPACED = '/api/v1/namespaces/:namespaceKey';

/** Path parameters reach queries as they are; PostgreSQL rejects NUL characters in text. */
const pathParameter = v.pipe(
  v.string(),
  v.check((value) => !value.includes('\u0000'), 'must not contain NUL characters'),
);

/** The query string's fields as sent (Fastify always parses one, empty when there is none). */
const fieldsOf = (query: unknown): Record<string, unknown> =>
  typeof query === 'object' && query !== null ? { ...query } : {};

/**
 * Registers Flipt routes, their inputs checked with Flipt's 400 (`{code, message}`). `namespaced`
 * routes exist under `/api/v1/namespaces/:namespaceKey` and, as Flipt's legacy aliases on namespace
 * "default", directly under `/api/v1`. `finish()` answers the other methods of every registered path as
 * grpc-gateway v2's routing error handler does: status 405 kept over the code's own 501, body
 * `{"code":12,"message":"Method Not Allowed"}`.
 */
export class FliptRoutes {
  private readonly methodsByPath = new Map<string, Set<HTTPMethods>>();
  private readonly table: RouteTable;

  constructor(app: FastifyInstance) {
    this.table = new RouteTable(app, parse);
  }

  route<Url extends string>(
    method: HTTPMethods,
    url: Url,
    handler: Handler<PathParams<Url>>,
    { key }: FliptRouteOptions<Url> = {},
  ): void {
    this.register(method, url, handler, key);
  }

  namespaced<Path extends string>(
    method: HTTPMethods,
    path: Path,
    handler: Handler<PathParams<Path> & { namespaceKey?: string }>,
    { legacy = true, key }: FliptRouteOptions<Path> & { legacy?: boolean } = {},
  ): void {
    this.register(method, `${NAMESPACED}${path}`, handler, key);
    if (legacy) this.register(method, `/api/v1${path}`, handler, key);
  }

  private register<Params>(method: HTTPMethods, url: string, handler: Handler<Params>, key?: string): void {
    const methods = this.methodsByPath.get(url) ?? new Set();
    methods.add(method);
    this.methodsByPath.set(url, methods);
    const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]);
    this.table.add({
      method,
      url,
      params: v.object(Object.fromEntries(names.map((name) => [name, pathParameter]))),
      handler: ({ params, query: sent, body }, request, reply) => {
        const query = fieldsOf(sent);
        const path: Record<string, string> = { ...params, ...(key && { key: params[key] }) };
        const namespaceKey = path.namespaceKey || DEFAULT_NAMESPACE;
        const base = (method === 'GET' || method === 'DELETE' ? query : body) ?? {};
        const message = typeof base !== 'object' || Array.isArray(base) ? base : { ...base, ...path };
        const read = { ...query, ...path, namespaceKey };
        // The parameters are the URL's, as `PathParams` reads them from its type.
        return handler({ params: params as Params, namespaceKey, query, read, message }, request, reply);
      },
    });
  }

  finish(): void {
    for (const [url, methods] of this.methodsByPath) {
      const others = METHODS.filter((method) => !methods.has(method));
      this.table.add({
        method: others,
        url,
        handler: async () => {
          throw new FliptError(GrpcCode.Unimplemented, 'Method Not Allowed', 405);
        },
      });
    }
  }
}

/** `?pretty` (any value) or `Accept: application/json+pretty` asks for indented JSON. */
function wantsPretty(query: unknown, accept: string | undefined): boolean {
  return (
    (typeof query === 'object' && query !== null && Object.hasOwn(query, 'pretty')) ||
    (accept?.includes('application/json+pretty') ?? false)
  );
}

/**
 * `?pretty` (any value) or `Accept: application/json+pretty` indents the JSON answer.
 * Registered in the Flipt routes' scope.
 */
export function prettyPrinting(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      !wantsPretty(request.query, request.headers.accept) ||
      typeof payload !== 'string' ||
      !String(reply.getHeader('content-type') ?? '').includes('json')
    )
      return payload;
    try {
      return JSON.stringify(JSON.parse(payload), null, 2);
    } catch {
      return payload;
    }
  });
}

/**
 * How the Flipt API scopes (with `prettyPrinting`) answer on the hot path: bodies as the app's parser
 * reads them, errors in Flipt's shape, indented answers left to Fastify.
 */
export const fliptHotScope: HotScope = {
  errorAnswer: (error, _params, log) => fliptErrorAnswer(error, log),
  readBody: parseJsonBody,
  reshapes: (request) => wantsPretty(undefined, request.headers.accept),
};
