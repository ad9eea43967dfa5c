/**
 * The response filter of Formbricks 1.6 (`TResponseFilterCriteria`): one filter for a survey's summary,
 * trends, response list and export. It travels as JSON in one `filter` query parameter, so a console
 * view with its filter is a link.
 */
import * as v from 'valibot';
import type { TSurvey, TSurveyQuestionType } from './types.js';

export type QuestionFilterOp =
  | 'submitted'
  | 'skipped'
  | 'equals'
  | 'notEquals'
  | 'lessThan'
  | 'lessEqual'
  | 'greaterThan'
  | 'greaterEqual'
  | 'includesAll'
  | 'includesOne'
  | 'clicked'
  | 'accepted'
  | 'booked'
  | 'uploaded'
  | 'notUploaded';

export interface QuestionFilter {
  op: QuestionFilterOp;
  /** A number for comparisons, a string for a hidden field's equals, choices for includes. */
  value?: number | string | string[];
}

export interface ResponseFilter {
  finished?: boolean;
  /** ISO-8601 bounds, both included. */
  createdAt?: { min?: string; max?: string };
  personAttributes?: Record<string, { op: 'equals' | 'notEquals'; value: string }>;
  tags?: { applied?: string[]; notApplied?: string[] };
  /** By question id or hidden field id. */
  data?: Record<string, QuestionFilter>;
  /** What the survey's linked flag gave the visitor (a variant key, or `enabled` / `disabled`): one of these. */
  flagValues?: string[];
}

const COMPARISONS = ['equals', 'notEquals', 'lessThan', 'lessEqual', 'greaterThan', 'greaterEqual'] as const;

/** The operators each question type allows (as Formbricks' response filter offers them); hidden fields: equals, notEquals. */
export const FILTER_OPS: Record<TSurveyQuestionType | 'hiddenField', readonly QuestionFilterOp[]> = {
  openText: ['submitted', 'skipped'],
  multipleChoiceSingle: ['includesOne', 'submitted', 'skipped'],
  multipleChoiceMulti: ['includesAll', 'includesOne', 'submitted', 'skipped'],
  pictureSelection: ['includesAll', 'includesOne', 'submitted', 'skipped'],
  nps: [...COMPARISONS, 'submitted', 'skipped'],
  rating: [...COMPARISONS, 'submitted', 'skipped'],
  cta: ['clicked', 'skipped'],
  consent: ['accepted', 'skipped'],
  cal: ['booked', 'skipped'],
  date: ['submitted', 'skipped'],
  fileUpload: ['uploaded', 'notUploaded'],
  hiddenField: ['equals', 'notEquals'],
};

const isoDate = v.pipe(
  v.string('must be a date'),
  v.check((text) => !Number.isNaN(Date.parse(text)), 'must be an ISO-8601 date'),
  v.transform((text) => new Date(text).toISOString()),
);
const names = v.array(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')), 'must be a list');

export const responseFilterSchema = v.strictObject(
  {
    finished: v.optional(v.boolean('must be true or false')),
    createdAt: v.optional(v.strictObject({ min: v.optional(isoDate), max: v.optional(isoDate) }, 'must be {min, max}')),
    personAttributes: v.optional(
      v.record(
        v.string(),
        v.strictObject({
          op: v.picklist(['equals', 'notEquals'], 'must be equals or notEquals'),
          value: v.string('must be a string'),
        }),
        'must be an object of attribute filters',
      ),
    ),
    tags: v.optional(
      v.strictObject({ applied: v.optional(names), notApplied: v.optional(names) }, 'must be {applied, notApplied}'),
    ),
    flagValues: v.optional(v.pipe(names, v.minLength(1, 'must name at least one value'))),
    data: v.optional(
      v.record(
        v.string(),
        v.strictObject({
          op: v.picklist(Object.values(FILTER_OPS).flat() as QuestionFilterOp[], 'is no filter operator'),
          value: v.optional(
            v.union([v.number(), v.string(), names], 'must be a number, a string or a list of strings'),
          ),
        }),
        'must be an object of question filters',
      ),
    ),
  },
  'must be a filter object',
);

/**
 * What is wrong with the filter's question conditions for this survey, by field path
 * (`data.<id>.op`), or an empty object.
 */
export function questionFilterErrors(survey: Pick<TSurvey, 'questions' | 'hiddenFields'>, filter: ResponseFilter) {
  const errors: Record<string, string> = {};
  for (const [id, condition] of Object.entries(filter.data ?? {})) {
    const question = survey.questions.find((q) => q.id === id);
    const type = question?.type ?? (survey.hiddenFields.fieldIds?.includes(id) ? 'hiddenField' : undefined);
    if (!type) {
      errors[`data.${id}`] = 'is no question or hidden field of the survey';
      continue;
    }
    if (!FILTER_OPS[type].includes(condition.op)) {
      errors[`data.${id}.op`] = `must be one of ${FILTER_OPS[type].join(', ')} for a ${type} question`;
      continue;
    }
    const needs =
      condition.op === 'includesAll' || condition.op === 'includesOne'
        ? 'list'
        : (COMPARISONS as readonly string[]).includes(condition.op)
          ? type === 'hiddenField'
            ? 'string'
            : 'number'
          : undefined;
    const value = condition.value;
    if (needs === 'list' && !Array.isArray(value)) errors[`data.${id}.value`] = 'must be a list of choices';
    if (needs === 'number' && typeof value !== 'number') errors[`data.${id}.value`] = 'must be a number';
    if (needs === 'string' && typeof value !== 'string') errors[`data.${id}.value`] = 'must be a string';
  }
  return errors;
}

/** The filter as its query parameter's value, or undefined when it filters nothing. */
export function encodeFilter(filter: ResponseFilter): string | undefined {
  const text = JSON.stringify(filter);
  return text === '{}' ? undefined : text;
}
