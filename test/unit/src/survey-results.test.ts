import { describe, expect, it } from 'vitest';
import type { ResponseFilter } from '../../../domain/surveys/response-filter';
import type { TSurvey } from '../../../domain/surveys/types';
import { draftOf, filterOf, targetsOf } from '../../../src/features/survey-results/filter-draft';
import { answerText, duration } from '../../../src/features/survey-results/format';
import { conditionCount, parseState, searchOf, trendsFilter } from '../../../src/features/survey-results/filter';

describe('the results view in the address', () => {
  it('round-trips the filter and the trends range through the query string', () => {
    const filter = {
      finished: true,
      createdAt: { min: '2026-11-01T00:00:00.000Z' },
      personAttributes: { plan: { op: 'equals' as const, value: 'pro' } },
      data: { score: { op: 'greaterEqual' as const, value: 9 } },
    };
    const search = searchOf({ filter, days: 90 });
    expect(parseState(search)).toEqual({ filter, days: 90, invalid: false });
    expect(conditionCount(filter)).toBe(4);
    expect(conditionCount({ ...filter, flagValues: ['blue', 'green'] })).toBe(5);
  });

  it('leaves out an empty filter and the default range', () => {
    expect(searchOf({ filter: {}, days: 30 })).toBe('');
    expect(parseState('')).toEqual({ filter: {}, days: 30, invalid: false });
  });

  it('reports a filter that is no filter, and ignores unknown ranges', () => {
    expect(parseState('?filter=%7Bnope&days=12')).toEqual({ filter: {}, days: 30, invalid: true });
    expect(parseState(`?filter=${encodeURIComponent('{"finished":"yes"}')}`).invalid).toBe(true);
  });

  it('gives the trends the chosen range unless the filter has a start date', () => {
    const now = new Date('2026-11-26T18:00:00Z');
    expect(trendsFilter({ filter: { finished: true }, days: 7 }, now)).toEqual({
      finished: true,
      createdAt: { min: '2026-11-20T00:00:00.000Z' },
    });
    const dated = { createdAt: { min: '2026-01-01T00:00:00.000Z' } };
    expect(trendsFilter({ filter: dated, days: 7 }, now)).toBe(dated);
  });
});

describe('answers and times as the results pages write them', () => {
  it('writes lists, objects and nothing', () => {
    expect(answerText(['a', 'b'])).toBe('a, b');
    expect(answerText({ x: 1 })).toBe('{"x":1}');
    expect(answerText(undefined)).toBe('');
    expect(answerText(9)).toBe('9');
  });
  it('writes milliseconds as seconds or minutes', () => {
    expect(duration(0)).toBe('0 s');
    expect(duration(2340)).toBe('2.3 s');
    expect(duration(45_000)).toBe('45 s');
    expect(duration(125_000)).toBe('2 min 5 s');
  });
});

describe('the filter panel’s rows', () => {
  const survey = {
    questions: [
      { id: 'score', type: 'nps', headline: 'Score', required: true },
      {
        id: 'reason',
        type: 'multipleChoiceMulti',
        headline: 'Reason',
        required: true,
        choices: [
          { id: 'a', label: 'Price' },
          { id: 'b', label: 'Quality' },
        ],
      },
    ],
    hiddenFields: { enabled: true, fieldIds: ['campaign'] },
  } as unknown as TSurvey;
  const targets = targetsOf(survey);

  it('offer the questions with their choices, then the hidden fields', () => {
    expect(targets.map((target) => [target.id, target.type, target.choices])).toEqual([
      ['score', 'nps', []],
      ['reason', 'multipleChoiceMulti', ['Price', 'Quality']],
      ['campaign', 'hiddenField', []],
    ]);
  });

  it('make the filter the server takes, and back', () => {
    const filter: ResponseFilter = {
      finished: false,
      createdAt: { min: '2026-11-01T00:00:00.000Z', max: '2026-11-07T23:59:59.999Z' },
      personAttributes: { plan: { op: 'notEquals', value: 'free' } },
      tags: { applied: ['vip'], notApplied: ['spam'] },
      data: {
        score: { op: 'greaterEqual', value: 9 },
        reason: { op: 'includesOne', value: ['Quality'] },
        campaign: { op: 'equals', value: 'spring' },
      },
      flagValues: ['blue'],
    };
    expect(filterOf(draftOf(filter), targets)).toEqual(filter);
  });

  it('leave out empty rows, and dates are whole UTC days', () => {
    const draft = draftOf({});
    draft.from = '2026-11-02';
    draft.attributes.push({ key: ' ', op: 'equals', value: 'x' });
    draft.questions.push({ id: '', op: 'submitted', value: '', choices: [] });
    draft.questions.push({ id: 'score', op: 'lessThan', value: '7', choices: [] });
    expect(filterOf(draft, targets)).toEqual({
      createdAt: { min: '2026-11-02T00:00:00.000Z' },
      data: { score: { op: 'lessThan', value: 7 } },
    });
  });
});
