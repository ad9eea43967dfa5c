import type { ServerResponse } from 'node:http';
import type { FastifyError, FastifyReply } from 'fastify';
import { DatabaseBusyError } from '../db/sqlite-writes.js';
import { codeForStatus, FliptError, GrpcCode } from '../flipt/errors.js';
import { helmetHeaders } from '../security-headers.js';

/** 1 MiB: Flipt's request size limit, answered with 413 beyond it. */
export const BODY_LIMIT = 1024 * 1024;

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A route's whole answer, ready to write: what a hot route's handler returns on both of its paths. */
export interface HttpAnswer {
  status: number;
  /** Flat name/value pairs, as `writeHead` takes them; the security headers are added when written. */
  headers: string[];
  body?: string | Buffer;
}

/** A JSON answer (the text already encoded), with any headers of the route's own. */
export function jsonAnswer(status: number, json: string, headers: string[] = []): HttpAnswer {
  return { status, headers: ['content-type', JSON_TYPE, ...headers], body: json };
}

/** `json` as a 200 answer, synchronously when it is a string (no promise on the hot path). */
export function jsonOk(json: string | Promise<string>): HttpAnswer | Promise<HttpAnswer> {
  return typeof json === 'string' ? jsonAnswer(200, json) : json.then((text) => jsonAnswer(200, text));
}

/**
 * The one writer of hot routes' answers, on Fastify's path and on `node:http`'s: the answer's status,
 * headers and body, and each of the security headers helmet gives every answer (`defaults`,
 * server/security-headers.ts) that the answer does not name itself (a route's own resource policy wins).
 */
export class AnswerWriter {
  constructor(private readonly defaults: readonly string[]) {}

  /** The answer's headers with the defaults it does not name. */
  headersOf(answer: HttpAnswer): string[] {
    const { headers } = answer;
    const named = new Set<string>();
    for (let i = 0; i < headers.length; i += 2) named.add(headers[i].toLowerCase());
    const merged = [...headers];
    const { defaults } = this;
    for (let i = 0; i < defaults.length; i += 2) if (!named.has(defaults[i])) merged.push(defaults[i], defaults[i + 1]);
    return merged;
  }

  /** Straight to `node:http`, with the body's length. */
  write(response: ServerResponse, answer: HttpAnswer): void {
    const headers = this.headersOf(answer);
    if (answer.body !== undefined) headers.push('content-length', String(Buffer.byteLength(answer.body)));
    response.writeHead(answer.status, headers);
    response.end(answer.body);
  }

  /** Through Fastify's reply, whose hooks (pretty printing) may still reshape the body; it counts the length. */
  send(reply: FastifyReply, answer: HttpAnswer): FastifyReply {
    const headers = this.headersOf(answer);
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i], headers[i + 1]);
    return reply.code(answer.status).send(answer.body);
  }
}

/** What logs a failure the answer hides (a 5xx), with Fastify's logger's signature. */
export interface ErrorLog {
  warn(message: string): void;
  error(error: unknown): void;
}

/**
 * Flipt's error shape for any failure: a FliptError with its own status and JSON, a busy database as 503
 * with `Retry-After`, Fastify's errors (a body too large, a malformed one) with their status, anything
 * else as 500 `internal error` (logged). Fastify's error handler and the hot path both answer with it.
 */
export function fliptErrorAnswer(error: FastifyError | FliptError | Error, log: ErrorLog): HttpAnswer {
  if (error instanceof FliptError) {
    const challenge = error.code === GrpcCode.Unauthenticated ? ['www-authenticate', error.message] : [];
    return jsonAnswer(error.httpStatus, JSON.stringify(error.toJSON()), challenge);
  }
  if (error instanceof DatabaseBusyError) {
    log.warn(error.message);
    const json = JSON.stringify({ code: GrpcCode.Unavailable, message: error.message, details: [] });
    return jsonAnswer(503, json, ['retry-after', String(error.retryAfter)]);
  }
  const { statusCode } = error as Partial<FastifyError>;
  const status = typeof statusCode === 'number' && statusCode >= 400 ? statusCode : 500;
  if (status >= 500) log.error(error);
  const message =
    status === 413
      ? `request body is too large (the limit is ${BODY_LIMIT} bytes)`
      : status >= 500
        ? 'internal error'
        : error.message;
  return jsonAnswer(status, JSON.stringify({ code: codeForStatus(status), message, details: [] }));
}

/** The writer with helmet's headers, the same for every app. */
export const answers = new AnswerWriter(helmetHeaders());
