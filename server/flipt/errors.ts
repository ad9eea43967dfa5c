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
