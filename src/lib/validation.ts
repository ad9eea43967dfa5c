import * as v from 'valibot';
import { KEY_PATTERN, MAX_JSON_ARRAY_ITEMS } from '../../domain/flipt/keys';

/** The console's form messages, worded as Flipt's console words them. */
export const MESSAGES = {
  required: 'Required',
  key: 'Only letters, numbers, hypens and underscores allowed',
  keyWithDot: 'Only letters, numbers, hypens, dots and underscores allowed',
  json: 'Must be valid JSON',
  context: 'Must be valid context value',
  stringArray: 'Must be valid JSON string array',
  numberArray: 'Must be valid JSON number array',
  tooMany: 'Too many items (maximum 100)',
  valueRequired: 'Value is required',
  datetime: 'Value is not a valid datetime',
} as const;

/** The console also allows dots in variant keys (the server only requires them non-empty). */
export const KEY_WITH_DOT_PATTERN = /^[-_,A-Za-z0-9.]+$/;

export const requiredString = v.pipe(v.string(), v.trim(), v.nonEmpty(MESSAGES.required));
export const keyRule = v.pipe(v.string(), v.nonEmpty(MESSAGES.required), v.regex(KEY_PATTERN, MESSAGES.key));
export const keyWithDotRule = v.pipe(
  v.string(),
  v.nonEmpty(MESSAGES.required),
  v.regex(KEY_WITH_DOT_PATTERN, MESSAGES.keyWithDot),
);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Empty, or any JSON text. */
export const isJsonOrEmpty = (text: string) => text.trim() === '' || parseJson(text).ok;

/** A JSON object whose values are all strings. */
export function isContextValue(text: string): boolean {
  const parsed = parseJson(text);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    return false;
  return Object.values(parsed.value).every((item) => typeof item === 'string');
}

function isArrayOf(text: string, type: 'string' | 'number'): boolean {
  const parsed = parseJson(text);
  return parsed.ok && Array.isArray(parsed.value) && parsed.value.every((item) => typeof item === type);
}

export const isStringArray = (text: string) => isArrayOf(text, 'string');
export const isNumberArray = (text: string) => isArrayOf(text, 'number');

export function withinArrayLimit(text: string): boolean {
  const parsed = parseJson(text);
  return !parsed.ok || !Array.isArray(parsed.value) || parsed.value.length <= MAX_JSON_ARRAY_ITEMS;
}

export const jsonRule = v.pipe(v.string(), v.check(isJsonOrEmpty, MESSAGES.json));
export const contextRule = v.pipe(v.string(), v.check(isContextValue, MESSAGES.context));
export const stringArrayRule = v.pipe(
  v.string(),
  v.check(isStringArray, MESSAGES.stringArray),
  v.check(withinArrayLimit, MESSAGES.tooMany),
);
export const numberArrayRule = v.pipe(
  v.string(),
  v.check(isNumberArray, MESSAGES.numberArray),
  v.check(withinArrayLimit, MESSAGES.tooMany),
);
