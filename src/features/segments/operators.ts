import { OPERATORS as API_OPERATORS } from '../../../domain/flipt/keys';
import type { ComparisonType } from '../../../domain/flipt/types';

export const CONSTRAINT_TYPES: { type: ComparisonType; label: string }[] = [
  { type: 'STRING_COMPARISON_TYPE', label: 'String' },
  { type: 'NUMBER_COMPARISON_TYPE', label: 'Number' },
  { type: 'BOOLEAN_COMPARISON_TYPE', label: 'Boolean' },
  { type: 'DATETIME_COMPARISON_TYPE', label: 'DateTime' },
  { type: 'ENTITY_ID_COMPARISON_TYPE', label: 'Entity' },
];

const COMMON_LABELS: Record<string, string> = {
  eq: '==',
  neq: '!=',
  empty: 'is empty',
  notempty: 'is not empty',
  prefix: 'has prefix',
  suffix: 'has suffix',
  contains: 'contains',
  notcontains: 'does not contain',
  isoneof: 'is one of',
  isnotoneof: 'is not one of',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  present: 'is present',
  notpresent: 'is not present',
  true: 'true',
  false: 'false',
};

const DATETIME_LABELS: Record<string, string> = {
  gt: 'is after',
  gte: 'is after or at',
  lt: 'is before',
  lte: 'is before or at',
};

/**
 * Operators by type, as the form offers them: the API's lists (domain/flipt/keys.ts), except that numbers and
 * datetimes list the greater-than operators first and datetimes offer no lists, as Flipt's console does.
 */
export const OPERATORS: Record<string, readonly string[]> = {
  STRING_COMPARISON_TYPE: API_OPERATORS.STRING_COMPARISON_TYPE,
  NUMBER_COMPARISON_TYPE: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'present', 'notpresent', 'isoneof', 'isnotoneof'],
  BOOLEAN_COMPARISON_TYPE: API_OPERATORS.BOOLEAN_COMPARISON_TYPE,
  DATETIME_COMPARISON_TYPE: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'present', 'notpresent'],
  ENTITY_ID_COMPARISON_TYPE: API_OPERATORS.ENTITY_ID_COMPARISON_TYPE,
};

export { ENTITY_ID_PROPERTY, LIST_OPERATORS, NO_VALUE_OPERATORS } from '../../../domain/flipt/keys';

export function operatorLabel(type: string, operator: string): string {
  return (
    (type === 'DATETIME_COMPARISON_TYPE' ? DATETIME_LABELS[operator] : undefined) ?? COMMON_LABELS[operator] ?? operator
  );
}

export function typeLabel(type: string): string {
  return CONSTRAINT_TYPES.find((candidate) => candidate.type === type)?.label ?? 'Unknown';
}

/** The list of an isoneof/isnotoneof value, or undefined when it is not a JSON array. */
export function parseList(value: string): (string | number)[] | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as (string | number)[]) : undefined;
  } catch {
    return undefined;
  }
}

export const MATCH_TYPES = [
  { matchType: 'ALL_MATCH_TYPE', label: 'All', description: 'All constraints must match' },
  { matchType: 'ANY_MATCH_TYPE', label: 'Any', description: 'At least one constraints must match' },
] as const;
