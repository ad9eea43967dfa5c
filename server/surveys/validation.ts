import * as v from 'valibot';
import { issuesByPath } from '../../domain/surveys/schema.js';
import { badRequest } from './errors.js';
import { CUID } from './ids.js';

/**
 * Validates a request body or seed entry. Failures become Formbricks' 400 "Fields are missing or incorrectly
 * formatted", with `details` mapping each failing path (dot-joined) to what is wrong with it.
 */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw badRequest('Fields are missing or incorrectly formatted', issuesByPath(result.issues));
}

export const cuidString = v.pipe(v.string('must be a string'), v.regex(CUID, 'Invalid cuid'));
export const MAX_USER_ID_LENGTH = 255;
export const userIdString = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(MAX_USER_ID_LENGTH, `must be at most ${MAX_USER_ID_LENGTH} characters`),
);

/** `schema`, for a JSON object only: valibot's record also lets arrays through. */
export const plainObject = <T extends v.GenericSchema>(schema: T, message: string) =>
  v.pipe(
    v.custom<unknown>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), message),
    schema,
  );
