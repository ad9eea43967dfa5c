import { describe, expect, it } from 'vitest';
import type { TSurveyQuestion } from '../../../../domain/surveys/types.js';
import { evaluateCondition } from '../../../../domain/surveys/logic.js';
import { nextQuestionId, progressSteps, timeToFinish } from '../../../../widget/render/logic.js';
import { recall } from '../../../../widget/render/recall.js';

const open = (id: string, logic: TSurveyQuestion['logic'] = []): TSurveyQuestion => ({
  id,
  type: 'openText',
  headline: id,
  required: false,
  logic,
});

describe('evaluateCondition', () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ['equals', 'Beta', 'Beta', true],
    ['equals', ['Beta'], 'Beta', true],
    ['equals', ['Beta', 'Gamma'], 'Beta', false],
    ['equals', 5, '5', true],
    ['notEquals', 5, '5', true],
    ['notEquals', 'a', 'a', false],
    ['lessThan', 3, 5, true],
    ['lessEqual', 5, 5, true],
    ['greaterThan', 9, 8, true],
    ['greaterEqual', 7, 8, false],
    ['lessThan', 3, undefined, false],
    ['includesAll', ['a', 'b', 'c'], ['a', 'c'], true],
    ['includesAll', ['a'], ['a', 'c'], false],
    ['includesOne', ['a', 'b'], ['c', 'b'], true],
    ['includesOne', 'b', ['c', 'b'], true],
    ['includesOne', 'b', 'b', false],
    ['accepted', 'accepted', undefined, true],
    ['clicked', 'dismissed', undefined, false],
    ['submitted', 'text', undefined, true],
    ['submitted', 'dismissed', undefined, false],
    ['submitted', [], undefined, false],
    ['submitted', 0, undefined, true],
    ['submitted', undefined, undefined, false],
    ['skipped', undefined, undefined, true],
    ['skipped', 'dismissed', undefined, true],
    ['skipped', [], undefined, true],
    ['skipped', 'x', undefined, false],
    ['uploaded', ['/f'], undefined, true],
    ['uploaded', 'skipped', undefined, false],
    ['notUploaded', 'skipped', undefined, true],
    ['notUploaded', [], undefined, true],
    ['booked', 'booked', undefined, false],
  ];
  it.each(cases)('%s(%j, %j) is %s', (condition, answer, value, expected) => {
    expect(evaluateCondition({ condition: condition as never, value: value as never, destination: 'x' }, answer)).toBe(
      expected,
    );
  });
});

describe('nextQuestionId', () => {
  const choice: TSurveyQuestion = {
    id: 'mc',
    type: 'multipleChoiceSingle',
    headline: 'Pick',
    required: true,
    choices: [
      { id: 'a', label: 'Alpha' },
      { id: 'other', label: 'Other' },
    ],
    logic: [
      { condition: 'equals', value: 'Other', destination: 'q3' },
      { condition: 'equals', value: 'Alpha', destination: 'end' },
    ],
  };
  const questions = [
    choice,
    open('q2'),
    open('q3', [{ condition: 'submitted' }, { condition: 'skipped', destination: 'q2' }]),
  ];

  it('follows the first matching rule', () => {
    expect(nextQuestionId(questions, choice, 'Alpha')).toBe('end');
  });
  it('tests a free "other" text as "Other"', () => {
    expect(nextQuestionId(questions, choice, 'my own answer')).toBe('q3');
  });
  it('skips rules without a destination and falls through to the next question or "end"', () => {
    expect(nextQuestionId(questions, questions[2], 'typed')).toBe('end');
    expect(nextQuestionId(questions, questions[2], undefined)).toBe('q2');
    expect(nextQuestionId(questions, questions[1], 'x')).toBe('q3');
  });
});

describe('progressSteps', () => {
  it('advances linearly without logic', () => {
    expect(progressSteps([open('a'), open('b'), open('c'), open('d')])).toEqual([0.125, 0.25, 0.5, 0.75]);
  });
  it('caps a question that jumps ahead at the middle', () => {
    const qs = [open('a', [{ condition: 'submitted', destination: 'e' }]), open('b'), open('c'), open('d'), open('e')];
    // a: min(middle 2, index of e 4 - 1) = 2 → 0.4; b: 1/5 < 0.4 → +0.1; c: 2/5 < 0.5 → +0.1; d: 3/5 = 0.6 → not larger → 0.7; e: 0.8
    expect(progressSteps(qs).map((p) => Math.round(p * 100))).toEqual([40, 50, 60, 70, 80]);
  });
});

describe('timeToFinish', () => {
  it('estimates 15 s per question', () => {
    expect(timeToFinish([open('a'), open('b')])).toBe('less than 1 minute');
    expect(timeToFinish([open('a'), open('b'), open('c'), open('d')])).toBe('1 minutes');
    expect(timeToFinish(Array.from({ length: 6 }, (_, i) => open(`q${i}`)))).toBe('less than 2 minutes');
    expect(timeToFinish(Array.from({ length: 30 }, (_, i) => open(`q${i}`)))).toBe('6+ minutes');
  });
});

describe('recall', () => {
  it('inserts earlier answers, escaped, or the fallback', () => {
    const answers = { name: '<b>Ada</b>', tags: ['a', 'b'], day: '2024-01-05', none: undefined };
    expect(recall('Hi #recall:name/fallback:friend#!', answers)).toBe('Hi &#60;b&#62;Ada&#60;/b&#62;!');
    expect(recall('Hi #recall:none/fallback:dearnbspfriend#!', answers)).toBe('Hi dear friend!');
    expect(recall('#recall:tags/fallback:x#', answers)).toBe('a, b');
    expect(recall('On #recall:day/fallback:x#', answers)).toBe('On Friday, January 5th, 2024');
  });
});
