/**
 * Flipt's key rules and constraint operators, shared by the server's request
 * validation and the console's forms. Operator sets are Flipt v1.47's.
 */
import type { ComparisonType } from './types.js';

/** Namespace, flag and segment keys on create. Commas are allowed, dots are not. */
export const KEY_PATTERN = /^[-_,A-Za-z0-9]+$/;

/** Keys, names, ids and properties are VARCHAR(255) columns in Flipt's schema. */
export const MAX_KEY_LENGTH = 255;
export const MAX_NAME_LENGTH = 255;

/** The most items an `isoneof`/`isnotoneof` constraint value may list. */
export const MAX_JSON_ARRAY_ITEMS = 100;

/** The largest variant attachment in bytes (Flipt v1.51.1 and later; the message says KB). */
export const MAX_ATTACHMENT_BYTES = 1_024_000;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

const NUMBER_OPERATORS = [
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'present',
  'notpresent',
  'isoneof',
  'isnotoneof',
] as const;

/** The operators each comparison type accepts; UNKNOWN accepts none. */
export const OPERATORS: Readonly<Record<ComparisonType, readonly string[]>> = {
  UNKNOWN_COMPARISON_TYPE: [],
  STRING_COMPARISON_TYPE: [
    'eq',
    'neq',
    'empty',
    'notempty',
    'prefix',
    'suffix',
    'contains',
    'notcontains',
    'isoneof',
    'isnotoneof',
  ],
  NUMBER_COMPARISON_TYPE: NUMBER_OPERATORS,
  BOOLEAN_COMPARISON_TYPE: ['true', 'false', 'present', 'notpresent'],
  DATETIME_COMPARISON_TYPE: NUMBER_OPERATORS,
  ENTITY_ID_COMPARISON_TYPE: ['eq', 'neq', 'contains', 'notcontains', 'isoneof', 'isnotoneof'],
};

/** Operators that compare against no value: their constraint's value is stored as "". */
export const NO_VALUE_OPERATORS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'empty',
  'notempty',
  'present',
  'notpresent',
]);

/** Operators whose value is a JSON array. */
export const LIST_OPERATORS: ReadonlySet<string> = new Set(['isoneof', 'isnotoneof']);

/** How Flipt names each comparison type in its constraint messages. */
export const COMPARISON_TYPE_LABELS: Readonly<Record<ComparisonType, string>> = {
  UNKNOWN_COMPARISON_TYPE: 'unknown',
  STRING_COMPARISON_TYPE: 'string',
  NUMBER_COMPARISON_TYPE: 'number',
  BOOLEAN_COMPARISON_TYPE: 'boolean',
  DATETIME_COMPARISON_TYPE: 'datetime',
  ENTITY_ID_COMPARISON_TYPE: 'entityId',
};

/** The property an ENTITY_ID constraint must name. */
export const ENTITY_ID_PROPERTY = 'entityId';
