import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type * as v from 'valibot';
import { parseRequest } from '../../../domain/flipt/schemas.js';
import { DEFAULT_NAMESPACE } from '../../../domain/flipt/types.js';
import { FliptError, GrpcCode, invalid } from '../errors.js';
import type { FliptMessage } from '../operations.js';

/** Parses a request against a schema, or throws Flipt's 400 naming the problem. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = parseRequest(schema, input);
  if (!result.success) throw invalid(result.message);
  return result.output;
}

/**
 * Builds a request message the way Flipt's gateway does: the JSON body (or, for GET and DELETE, the
 * query parameters), then the path parameters written over it.
 */
export function message(request: FastifyRequest, extra: Record<string, string> = {}): unknown {
  const base = (request.method === 'GET' || request.method === 'DELETE' ? request.query : request.body) ?? {};
  if (typeof base !== 'object' || Array.isArray(base)) return base;
  const fields: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [name, value] of Object.entries({ ...(request.params as Record<string, string>), ...extra })) {
    if (value !== undefined) fields[name] = value;
  }
  return fields;
}

/** Path parameters reach queries as they are; PostgreSQL rejects NUL characters in text. */
function checkedParams(request: FastifyRequest): FastifyRequest {
  for (const [name, value] of Object.entries(request.params as Record<string, string>)) {
    if (value.includes('\u0000')) throw invalid(`invalid field ${name}: must not contain NUL characters`);
  }
  return request;
}

/** The path parameters of Flipt's routes. */
export interface PathParams {
  namespaceKey?: string;
  flagKey: string;
  segmentKey: string;
  id: string;
}

export const pathParams = (request: FastifyRequest) => request.params as PathParams;

/** The namespace in the path; the legacy routes have none and mean "default". */
export const namespaceOf = (request: FastifyRequest) => pathParams(request).namespaceKey || DEFAULT_NAMESPACE;

/**
 * The message of a read or a delete: the query and path parameters (`extra` names the path's key as
 * the message's field), in the namespace of the path, never one named in the query.
 */
export function readMessage(request: FastifyRequest, extra: Record<string, string> = {}): FliptMessage {
  return { ...(request.query as object), ...pathParams(request), ...extra, namespaceKey: namespaceOf(request) };
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

/**
 * Registers Flipt routes. `namespaced` routes exist under `/api/v1/namespaces/:namespaceKey` and, as
 * Flipt's legacy aliases on namespace "default", directly under `/api/v1`. `finish()` answers the
 * other methods of every registered path as grpc-gateway v2's routing error handler does: status 405
 * kept over the code's own 501, body `{"code":12,"message":"Method Not Allowed"}`.
 */
export class FliptRoutes {
  private readonly methodsByPath = new Map<string, Set<HTTPMethods>>();

  constructor(private readonly app: FastifyInstance) {}

  route(method: HTTPMethods, url: string, handler: Handler): void {
    const methods = this.methodsByPath.get(url) ?? new Set();
    methods.add(method);
    this.methodsByPath.set(url, methods);
    this.app.route({ method, url, handler: async (request, reply) => handler(checkedParams(request), reply) });
  }

  namespaced(method: HTTPMethods, path: string, handler: Handler, { legacy = true } = {}): void {
    this.route(method, `/api/v1/namespaces/:namespaceKey${path}`, handler);
    if (legacy) this.route(method, `/api/v1${path}`, handler);
  }

  finish(): void {
    for (const [url, methods] of this.methodsByPath) {
      const others = METHODS.filter((method) => !methods.has(method));
      this.app.route({
        method: others,
        url,
        handler: async () => {
          throw new FliptError(GrpcCode.Unimplemented, 'Method Not Allowed', 405);
        },
      });
    }
  }
}

/**
 * `?pretty` (any value) or `Accept: application/json+pretty` indents the JSON answer.
 * Registered in the Flipt routes' scope.
 */
export function prettyPrinting(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const query = request.query as Record<string, unknown> | undefined;
    const wanted =
      (query && Object.hasOwn(query, 'pretty')) || request.headers.accept?.includes('application/json+pretty');
    if (!wanted || typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json'))
      return payload;
    try {
      return JSON.stringify(JSON.parse(payload), null, 2);
    } catch {
      return payload;
    }
  });
}
