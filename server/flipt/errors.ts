/**
 * Flipt's error shape: `{"code": <gRPC code>, "message": ..., "details": []}`, with the HTTP status
 * grpc-gateway derives from the gRPC code.
 */
export const GrpcCode = {
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  Unauthenticated: 16,
} as const;
export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

const HTTP_STATUS: Record<number, number> = {
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

export class FliptError extends Error {
  override name = 'FliptError';
  constructor(
    readonly code: GrpcCode,
    message: string,
    /** Overrides the status derived from the code (413 for oversized bodies). */
    readonly httpStatus: number = HTTP_STATUS[code] ?? 500,
  ) {
    super(message);
  }

  /** The answer's body (subclasses for other APIs give their own shape). */
  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, details: [] };
  }
}

export const notFound = (what: string) => new FliptError(GrpcCode.NotFound, `${what} not found`);
export const invalid = (message: string) => new FliptError(GrpcCode.InvalidArgument, message);
export const invalidField = (field: string, reason: string) =>
  new FliptError(GrpcCode.InvalidArgument, `invalid field ${field}: ${reason}`);
export const unauthenticated = () => new FliptError(GrpcCode.Unauthenticated, 'request was not authenticated');
export const readOnly = () => new FliptError(GrpcCode.Internal, 'not implemented');

/**
 * What a store write answers when the database refused it for a unique or foreign key; undefined for any
 * other error. Each write checks uniqueness and references before writing, so a constraint violation means
 * a concurrent write got there first (PostgreSQL's read-committed transactions): 409, not 500.
 */
export function concurrentWriteError(error: unknown): FliptError | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (code === '23505' || text.includes('UNIQUE constraint failed')) {
    return new FliptError(GrpcCode.Aborted, 'a concurrent write created the same key; retry the request');
  }
  if (code === '23503' || text.includes('FOREIGN KEY constraint failed')) {
    return new FliptError(
      GrpcCode.Aborted,
      'a concurrent write changed what this request refers to; retry the request',
    );
  }
  return undefined;
}

/** The gRPC code that best describes a plain HTTP error status (for errors raised by Fastify itself). */
export function codeForStatus(status: number): GrpcCode {
  switch (status) {
    case 401:
      return GrpcCode.Unauthenticated;
    case 403:
      return GrpcCode.PermissionDenied;
    case 404:
      return GrpcCode.NotFound;
    case 405:
      return GrpcCode.Unimplemented;
    case 413:
    case 429:
      return GrpcCode.ResourceExhausted;
    case 501:
      return GrpcCode.Unimplemented;
    case 503:
      return GrpcCode.Unavailable;
    default:
      return status >= 500 ? GrpcCode.Internal : GrpcCode.InvalidArgument;
  }
}
