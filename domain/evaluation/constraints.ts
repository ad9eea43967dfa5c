import type { SnapshotConstraint } from './snapshot.js';
import {
  compareInstants,
  goIsBlank,
  goTrimSpace,
  parseGoBool,
  parseGoDateTime,
  parseGoFloat,
  parseJsonNumberArray,
  parseJsonStringArray,
} from './goparse.js';

/**
 * Constraint operators, compiled once per snapshot: the constraint's value is
 * parsed here, so evaluating a constraint only parses the context value. A value that Flipt would
 * fail to parse makes the constraint not match, exactly where Flipt's evaluator logs the error.
 */
export type ConstraintTest = (value: string) => boolean;

const never: ConstraintTest = () => false;

/** The test for a constraint, or `undefined` for an unknown comparison type (an evaluation error in Flipt). */
export function compileConstraintTest(constraint: SnapshotConstraint): ConstraintTest | undefined {
  switch (constraint.type) {
    case 'STRING_CONSTRAINT_COMPARISON_TYPE':
    case 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE':
      return stringTest(constraint.operator, constraint.value);
    case 'NUMBER_CONSTRAINT_COMPARISON_TYPE':
      return numberTest(constraint.operator, constraint.value);
    case 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE':
      return booleanTest(constraint.operator);
    case 'DATETIME_CONSTRAINT_COMPARISON_TYPE':
      return dateTimeTest(constraint.operator, constraint.value);
    default:
      return undefined;
  }
}

/** The operators that look at presence only, shared by number, boolean and datetime. */
function presenceTest(operator: string): ConstraintTest | undefined {
  if (operator === 'present') return (v) => !goIsBlank(v);
  if (operator === 'notpresent') return goIsBlank;
  return undefined;
}

function stringTest(operator: string, c: string): ConstraintTest {
  switch (operator) {
    case 'empty':
      return goIsBlank;
    case 'notempty':
      return (v) => !goIsBlank(v);
    case 'eq':
      return (v) => v !== '' && v === c;
    case 'neq':
      return (v) => v !== '' && v !== c;
    case 'prefix':
      return (v) => v !== '' && goTrimSpace(v).startsWith(c);
    case 'suffix':
      return (v) => v !== '' && goTrimSpace(v).endsWith(c);
    case 'contains':
      return (v) => v !== '' && v.includes(c);
    case 'notcontains':
      return (v) => v !== '' && !v.includes(c);
    case 'isoneof':
    case 'isnotoneof': {
      const list = parseJsonStringArray(c);
      if (!list) return never;
      const set = new Set(list);
      return operator === 'isoneof' ? (v) => v !== '' && set.has(v) : (v) => v !== '' && !set.has(v);
    }
    default:
      return never;
  }
}

function numberTest(operator: string, c: string): ConstraintTest {
  const presence = presenceTest(operator);
  if (presence) return presence;
  if (operator === 'isoneof' || operator === 'isnotoneof') {
    const list = parseJsonNumberArray(c);
    if (!list) return never;
    // Go compares with ==, so NaN is never a member (a Set would find it).
    const set = new Set(list.filter((n) => !Number.isNaN(n)));
    const member = (v: string): boolean | undefined => {
      const n = v === '' ? undefined : parseGoFloat(v);
      return n === undefined ? undefined : set.has(n);
    };
    return operator === 'isoneof' ? (v) => member(v) === true : (v) => member(v) === false;
  }
  const value = parseGoFloat(c);
  if (value === undefined) return never;
  const compare = NUMBER_COMPARISONS[operator];
  if (!compare) return never;
  return (v) => {
    if (v === '') return false;
    const n = parseGoFloat(v);
    return n !== undefined && compare(n, value);
  };
}

const NUMBER_COMPARISONS: Record<string, (v: number, c: number) => boolean> = {
  eq: (v, c) => v === c,
  neq: (v, c) => v !== c,
  lt: (v, c) => v < c,
  lte: (v, c) => v <= c,
  gt: (v, c) => v > c,
  gte: (v, c) => v >= c,
};

function booleanTest(operator: string): ConstraintTest {
  const presence = presenceTest(operator);
  if (presence) return presence;
  if (operator === 'true') return (v) => parseGoBool(v) === true;
  if (operator === 'false') return (v) => parseGoBool(v) === false;
  return never;
}

function dateTimeTest(operator: string, c: string): ConstraintTest {
  const presence = presenceTest(operator);
  if (presence) return presence;
  const value = parseGoDateTime(c);
  const compare = DATETIME_COMPARISONS[operator];
  if (!value || !compare) return never;
  return (v) => {
    if (v === '') return false;
    const d = parseGoDateTime(v);
    return d !== undefined && compare(compareInstants(d, value));
  };
}

/** Each takes the sign of (context instant − constraint instant). */
const DATETIME_COMPARISONS: Record<string, (order: number) => boolean> = {
  eq: (order) => order === 0,
  neq: (order) => order !== 0,
  lt: (order) => order < 0,
  lte: (order) => order <= 0,
  gt: (order) => order > 0,
  gte: (order) => order >= 0,
};
