/** The filter panel's form model (FilterPanel.tsx): the response filter as rows, and the rows as a filter. */
import * as v from 'valibot';
import {
  FILTER_OPS,
  type QuestionFilter,
  type QuestionFilterOp,
  type ResponseFilter,
} from '../../../domain/surveys/response-filter';
import type { TSurvey, TSurveyQuestion } from '../../../domain/surveys/types';

export const NUMBER_OPS: readonly QuestionFilterOp[] = [
  'equals',
  'notEquals',
  'lessThan',
  'lessEqual',
  'greaterThan',
  'greaterEqual',
];

const attributeRow = v.object({ key: v.string(), op: v.picklist(['equals', 'notEquals']), value: v.string() });
const tagRow = v.object({ name: v.string(), applied: v.boolean() });
const questionRow = v.object({
  id: v.string(),
  op: v.picklist(Object.values(FILTER_OPS).flat()),
  value: v.string(),
  choices: v.array(v.string()),
});

/** The filter as the form edits it: rows, and dates as `YYYY-MM-DD` (UTC days); every draft can be applied. */
export const draftSchema = v.object({
  finished: v.picklist(['', 'true', 'false']),
  from: v.string(),
  to: v.string(),
  attributes: v.array(attributeRow),
  tags: v.array(tagRow),
  questions: v.array(questionRow),
  /** Values of the survey's linked flag the visitor got. */
  flagValues: v.array(v.string()),
});
export type Draft = v.InferOutput<typeof draftSchema>;
export type AttributeRow = Draft['attributes'][number];
export type TagRow = Draft['tags'][number];
export type QuestionRow = Draft['questions'][number];

/** A question or hidden field the filter can name, with the operators it allows. */
export interface Target {
  id: string;
  label: string;
  type: TSurveyQuestion['type'] | 'hiddenField';
  choices: string[];
}

export function targetsOf(survey: TSurvey): Target[] {
  return [
    ...survey.questions.map((question) => ({
      id: question.id,
      label: question.headline,
      type: question.type,
      choices:
        question.type === 'multipleChoiceSingle' || question.type === 'multipleChoiceMulti'
          ? question.choices.map((choice) => choice.label)
          : question.type === 'pictureSelection'
            ? question.choices.map((choice) => choice.id)
            : [],
    })),
    ...(survey.hiddenFields.enabled ? (survey.hiddenFields.fieldIds ?? []) : []).map((id) => ({
      id,
      label: `${id} (hidden field)`,
      type: 'hiddenField' as const,
      choices: [],
    })),
  ];
}

export function draftOf(filter: ResponseFilter): Draft {
  return {
    finished: filter.finished === undefined ? '' : filter.finished ? 'true' : 'false',
    from: filter.createdAt?.min?.slice(0, 10) ?? '',
    to: filter.createdAt?.max?.slice(0, 10) ?? '',
    attributes: Object.entries(filter.personAttributes ?? {}).map(([key, { op, value }]) => ({ key, op, value })),
    tags: [
      ...(filter.tags?.applied ?? []).map((name) => ({ name, applied: true })),
      ...(filter.tags?.notApplied ?? []).map((name) => ({ name, applied: false })),
    ],
    questions: Object.entries(filter.data ?? {}).map(([id, { op, value }]) => ({
      id,
      op,
      value: Array.isArray(value) || value === undefined ? '' : String(value),
      choices: Array.isArray(value) ? value : [],
    })),
    flagValues: filter.flagValues ?? [],
  };
}

export function filterOf(draft: Draft, targets: Target[]): ResponseFilter {
  const filter: ResponseFilter = {};
  if (draft.finished) filter.finished = draft.finished === 'true';
  if (draft.from || draft.to) {
    filter.createdAt = {
      ...(draft.from && { min: `${draft.from}T00:00:00.000Z` }),
      ...(draft.to && { max: `${draft.to}T23:59:59.999Z` }),
    };
  }
  const attributes = draft.attributes.filter((row) => row.key.trim());
  if (attributes.length > 0) {
    filter.personAttributes = Object.fromEntries(
      attributes.map((row) => [row.key.trim(), { op: row.op, value: row.value }]),
    );
  }
  const applied = draft.tags.filter((row) => row.name && row.applied).map((row) => row.name);
  const notApplied = draft.tags.filter((row) => row.name && !row.applied).map((row) => row.name);
  if (applied.length > 0 || notApplied.length > 0) {
    filter.tags = { ...(applied.length > 0 && { applied }), ...(notApplied.length > 0 && { notApplied }) };
  }
  if (draft.flagValues.length > 0) filter.flagValues = draft.flagValues;
  const questions = draft.questions.filter((row) => row.id);
  if (questions.length > 0) {
    filter.data = Object.fromEntries(
      questions.map((row): [string, QuestionFilter] => {
        const type = targets.find((target) => target.id === row.id)?.type;
        if (row.op === 'includesAll' || row.op === 'includesOne') return [row.id, { op: row.op, value: row.choices }];
        if (NUMBER_OPS.includes(row.op))
          return [row.id, { op: row.op, value: type === 'hiddenField' ? row.value : Number(row.value) }];
        return [row.id, { op: row.op }];
      }),
    );
  }
  return filter;
}
