import { FliptError, GrpcCode } from './flipt/errors.js';

/**
 * Flipt's gateway decodes every body as JSON whatever its Content-Type (the Node SDK sends none)
 * and takes an empty body as `{}`.
 */
export function parseJsonBody(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new FliptError(GrpcCode.InvalidArgument, 'invalid JSON body: the request body is not valid JSON');
  }
}
