import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { FliptError } from '../flipt/errors.js';
import { parseJsonBody } from '../json-body.js';
import type { Metrics } from '../metrics.js';
import type { Tracing } from '../tracing.js';

/** Answers a parsed request body with JSON: synchronously when it can (no promise on the hot path), else with a promise. */
export type FastHandler = (body: unknown) => string | Promise<string>;

/**
 * The hot path: single-flag evaluations answered straight from `node:http`, ahead of Fastify's
 * request pipeline, which on its own costs more than half of the throughput here (bench/http).
 * Only exact POSTs to the registered paths are taken, and only while no hook would have to run on
 * them (the evaluation plugin registers nothing when authentication or CSRF guards evaluation);
 * everything else, including `?pretty` (or its Accept header), trailing slashes and requests during shutdown, goes to
 * Fastify, whose routes for the same paths call the same handlers.
 * A body in one chunk (the usual case) is decoded without copying. Each answer is counted in the
 * HTTP metrics, traced and logged at debug level, as Fastify's routes are.
 */
export class FastPath {
  private readonly routes = new Map<string, FastHandler>();
  private open = true;
  private readonly logRequests: boolean;

  constructor(
    private readonly bodyLimit: number,
    private readonly log: FastifyBaseLogger,
    private readonly metrics?: Metrics,
    private readonly tracing?: Tracing,
  ) {
    this.logRequests = log.level === 'debug' || log.level === 'trace';
  }

  add(path: string, handler: FastHandler): void {
    this.routes.set(path, handler);
  }

  close(): void {
    this.open = false;
  }

  /** Answers the request if it is one of ours; false hands it on. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const handler = this.open && request.method === 'POST' ? this.routes.get(request.url!) : undefined;
    if (!handler || request.headers.accept?.includes('application/json+pretty')) return false;
    const started = performance.now();
    const path = request.url!;
    this.tracing?.routed(request, 'POST', path);
    const answer = (status: number, json: string) => {
      send(response, status, json);
      const seconds = (performance.now() - started) / 1000;
      this.metrics?.answered('POST', path, status, seconds);
      if (this.logRequests) this.log.debug({ method: 'POST', url: path, status, ms: seconds * 1000 }, 'request');
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
        if (error instanceof FliptError) return answer(error.httpStatus, JSON.stringify(error.toJSON()));
        // Fastify's routes log with a request id; this path has none until something goes wrong.
        this.log.error({ err: error, reqId: randomUUID(), url: path }, 'evaluation failed');
        answer(500, JSON.stringify({ code: 13, message: 'internal error', details: [] }));
      };
      try {
        const json = handler(parseJsonBody(body));
        if (json instanceof Promise) json.then((settled) => answer(200, settled), fail);
        else answer(200, json);
      } catch (error) {
        fail(error);
      }
    });
    return true;
  }
}

function send(response: ServerResponse, status: number, json: string): void {
  response.writeHead(status, [
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(json)),
  ]);
  response.end(json);
}
