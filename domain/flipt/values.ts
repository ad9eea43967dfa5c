/**
 * The value rules that the server's request schemas and the console's forms both apply: each answers
 * what is wrong (a problem code) and leaves the wording to its caller, since the API answers in
 * Flipt's server messages and the console in Flipt's console messages.
 */
import {
  KEY_PATTERN,
  LIST_OPERATORS,
  MAX_ATTACHMENT_BYTES,
  MAX_JSON_ARRAY_ITEMS,
  MAX_KEY_LENGTH,
  NO_VALUE_OPERATORS,
} from './keys.js';
import type { ComparisonType } from './types.js';

/** The parsed JSON value, or undefined when the text is not JSON. */
export function parseJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

export type KeyProblem = 'empty' | 'tooLong' | 'invalid';

/** A namespace, flag or segment key being created. */
export function keyProblem(key: string): KeyProblem | undefined {
  if (key === '') return 'empty';
  if (key.length > MAX_KEY_LENGTH) return 'tooLong';
  if (!KEY_PATTERN.test(key)) return 'invalid';
  return undefined;
}

export type AttachmentProblem = 'notJson' | 'tooLarge';

/** A variant attachment: empty, or JSON of at most MAX_ATTACHMENT_BYTES bytes. */
export function attachmentProblem(text: string): AttachmentProblem | undefined {
  if (text === '') return undefined;
  if (parseJson(text) === undefined) return 'notJson';
  if (new TextEncoder().encode(text).length > MAX_ATTACHMENT_BYTES) return 'tooLarge';
  return undefined;
}

export type ConstraintValueProblem = 'empty' | 'notNumberList' | 'notStringList' | 'tooManyItems' | 'notDatetime';

/**
 * What is wrong with a constraint's value for its type and operator (the operator is one the type
 * accepts), or undefined when nothing is. Operators that compare against no value accept any value.
 */
export function constraintValueProblem(
  type: ComparisonType,
  operator: string,
  value: string,
): ConstraintValueProblem | undefined {
  if (NO_VALUE_OPERATORS.has(operator)) return undefined;
  if (value === '') return 'empty';
  // As the server always did: a datetime value is a datetime, whatever the operator.
  if (type === 'DATETIME_COMPARISON_TYPE') return normalizeDatetime(value) === undefined ? 'notDatetime' : undefined;
  if (LIST_OPERATORS.has(operator)) {
    const list = parseJson(value);
    const numbers = type === 'NUMBER_COMPARISON_TYPE';
    if (!Array.isArray(list) || list.some((item) => typeof item !== (numbers ? 'number' : 'string'))) {
      return numbers ? 'notNumberList' : 'notStringList';
    }
    return list.length > MAX_JSON_ARRAY_ITEMS ? 'tooManyItems' : undefined;
  }
  return undefined;
}

/**
 * `YYYY-MM-DD` is kept as is; RFC 3339 becomes UTC without fractional seconds
 * (`2024-01-01T10:00:00.5+02:00` → `2024-01-01T08:00:00Z`). Anything else: undefined.
 */
export function normalizeDatetime(value: string): string | undefined {
  const date = /^(\d{4})-(\d\d)-(\d\d)$/.exec(value);
  if (date) return validDate(+date[1], +date[2], +date[3]) ? value : undefined;
  const match = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:([Zz])|([+-])(\d\d):(\d\d))$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, zulu, sign, oh, om] = match;
  if (!validDate(+y, +mo, +d) || +h > 23 || +mi > 59 || +s > 59) return undefined;
  if (!zulu && (+oh > 23 || +om > 59)) return undefined;
  const offsetMinutes = zulu ? 0 : (sign === '-' ? -1 : 1) * (+oh * 60 + +om);
  const millis = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) - offsetMinutes * 60_000;
  return new Date(millis).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function validDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A JSON object whose values are all strings: an evaluation context. */
export function isStringMap(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string')
  );
}
