import * as v from 'valibot';
import type { ComparisonType } from '../../../domain/flipt/types';
import { constraintValueProblem } from '../../../domain/flipt/values';
import { CONSTRAINT_VALUE_MESSAGES, keyRule, requiredString } from '../../lib/validation';
import type { ConstraintValues } from './api';

export const segmentSchema = v.object({ key: keyRule, name: requiredString });

/** The first message for a constraint's value, or undefined when it is valid. */
export function constraintValueError({ type, operator, value }: ConstraintValues): string | undefined {
  const problem = constraintValueProblem(type as ComparisonType, operator, value.trim());
  return problem && CONSTRAINT_VALUE_MESSAGES[problem];
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
