import { DatabaseBusyError } from '../db/sqlite-writes.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Formbricks' error codes and the status each is sent with. */
export type SurveyErrorCode =
  | 'bad_request'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'not_authenticated'
  | 'method_not_allowed'
  | 'too_many_requests'
  | 'payload_too_large'
  | 'internal_server_error';

/** An error answered as Formbricks does: `{code, message, details}`. */
export class SurveyApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: SurveyErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details: Record<string, unknown> = {}) =>
  new SurveyApiError(400, 'bad_request', message, details);

export const notFound = (type: string, id: string) =>
  new SurveyApiError(404, 'not_found', `${type} not found`, { resource_id: id, resource_type: type.toLowerCase() });

export const unauthorized = (message: string) => new SurveyApiError(401, 'unauthorized', message);

/**
 * Why a write is refused when the storage is read-only: every survey surface (the console's survey and results
 * routes, the management API) answers it with 403, in its own shape.
 */
export const READ_ONLY_STORAGE =
  'The storage is read-only: surveys, their settings, responses and webhooks cannot be changed';

export const readOnlyStorage = () => new SurveyApiError(403, 'forbidden', READ_ONLY_STORAGE);

/** Methods that change something. */
export const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/** The error handler of the survey scope: every failure is JSON, never a bare 500 page. */
export function answerSurveyError(error: FastifyError | SurveyApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof SurveyApiError) {
    return reply.code(error.status).send({ code: error.code, message: error.message, details: error.details });
  }
  if (error instanceof DatabaseBusyError) {
    request.log.warn(error.message);
    reply.header('retry-after', String(error.retryAfter));
    return reply.code(503).send({ code: 'service_unavailable', message: error.message, details: {} });
  }
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
  if (status >= 500) {
    request.log.error(error);
    return reply.code(500).send({ code: 'internal_server_error', message: 'Internal server error', details: {} });
  }
  const code = status === 404 ? 'not_found' : status === 429 ? 'too_many_requests' : 'bad_request';
  return reply.code(status).send({ code, message: error.message, details: {} });
}
