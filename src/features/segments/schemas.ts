import * as v from 'valibot';
import {
  MESSAGES,
  isNumberArray,
  isStringArray,
  keyRule,
  requiredString,
  withinArrayLimit,
} from '../../lib/validation';
import { LIST_OPERATORS, NO_VALUE_OPERATORS } from './operators';
import type { ConstraintValues } from './queries';

export const segmentSchema = v.object({ key: keyRule, name: requiredString });

const RFC3339 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

export function isDatetime(value: string): boolean {
  return RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}

/** The first message for a constraint's value, or undefined when it is valid. */
export function constraintValueError({ type, operator, value }: ConstraintValues): string | undefined {
  if (NO_VALUE_OPERATORS.has(operator)) return undefined;
  if (value.trim() === '') return MESSAGES.valueRequired;
  if (LIST_OPERATORS.has(operator)) {
    if (type === 'NUMBER_COMPARISON_TYPE' && !isNumberArray(value)) return MESSAGES.numberArray;
    if (type !== 'NUMBER_COMPARISON_TYPE' && !isStringArray(value)) return MESSAGES.stringArray;
    if (!withinArrayLimit(value)) return MESSAGES.tooMany;
    return undefined;
  }
  if (type === 'DATETIME_COMPARISON_TYPE' && !isDatetime(value)) return MESSAGES.datetime;
  return undefined;
}

export const constraintSchema = v.pipe(
  v.object({
    property: requiredString,
    type: v.string(),
    operator: v.string(),
    value: v.string(),
    description: v.string(),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const message = constraintValueError(dataset.value as ConstraintValues);
    if (message)
      addIssue({
        message,
        path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'value', value: dataset.value.value }],
      });
  }),
);
