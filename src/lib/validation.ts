import * as v from 'valibot';
import { MAX_ATTACHMENT_BYTES, MAX_KEY_LENGTH } from '../../domain/flipt/keys';
import {
  type AttachmentProblem,
  type ConstraintValueProblem,
  type KeyProblem,
  attachmentProblem,
  isStringMap,
  keyProblem,
  parseJson,
} from '../../domain/flipt/values';

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
  tooLong: `Must be at most ${MAX_KEY_LENGTH} characters`,
  attachmentTooLarge: `Must be less than ${MAX_ATTACHMENT_BYTES / 1024} KB`,
} as const;

// The rules are the server's (domain/flipt/values.ts); only the wording is the console's.
const KEY_MESSAGES: Record<KeyProblem, string> = {
  empty: MESSAGES.required,
  tooLong: MESSAGES.tooLong,
  invalid: MESSAGES.key,
};

const ATTACHMENT_MESSAGES: Record<AttachmentProblem, string> = {
  notJson: MESSAGES.json,
  tooLarge: MESSAGES.attachmentTooLarge,
};

export const CONSTRAINT_VALUE_MESSAGES: Record<ConstraintValueProblem, string> = {
  empty: MESSAGES.valueRequired,
  notNumberList: MESSAGES.numberArray,
  notStringList: MESSAGES.stringArray,
  tooManyItems: MESSAGES.tooMany,
  notDatetime: MESSAGES.datetime,
};

/** The console also allows dots in variant keys (the server only requires them non-empty). */
export const KEY_WITH_DOT_PATTERN = /^[-_,A-Za-z0-9.]+$/;

export const requiredString = v.pipe(v.string(), v.trim(), v.nonEmpty(MESSAGES.required));

/** A namespace, flag or segment key, as the server accepts it on create. */
export const keyRule = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? keyProblem(dataset.value) : undefined;
    if (problem) addIssue({ message: KEY_MESSAGES[problem] });
  }),
);

export const keyWithDotRule = v.pipe(
  v.string(),
  v.nonEmpty(MESSAGES.required),
  v.maxLength(MAX_KEY_LENGTH, MESSAGES.tooLong),
  v.regex(KEY_WITH_DOT_PATTERN, MESSAGES.keyWithDot),
);

export const attachmentRule = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? attachmentProblem(dataset.value.trim()) : undefined;
    if (problem) addIssue({ message: ATTACHMENT_MESSAGES[problem] });
  }),
);

/** A JSON object whose values are all strings. */
export const isContextValue = (text: string) => isStringMap(parseJson(text));

export const contextRule = v.pipe(v.string(), v.check(isContextValue, MESSAGES.context));
