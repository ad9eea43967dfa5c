import { describe, expect, it } from 'vitest';
import {
  acceptedSummary,
  choiceSummary,
  ctaSummary,
  dropOff,
  npsSummary,
  type ResponseGroup,
  ratingSummary,
  summaryMeta,
} from '../../../../domain/surveys/summary.js';
import type { TResponseData, TSurveyQuestion } from '../../../../domain/surveys/types.js';

/** One response (a group of one), or `count` alike. */
const response = (
  data: TResponseData,
  options: { finished?: boolean; dismissed?: string[]; ttc?: Record<string, number>; count?: number } = {},
): ResponseGroup => ({
  count: options.count ?? 1,
  finished: options.finished ?? true,
  data,
  dismissed: options.dismissed ?? [],
  ttc: Object.fromEntries(
    Object.entries(options.ttc ?? {}).map(([key, ms]) => [
      key,
      { sum: ms * (options.count ?? 1), count: options.count ?? 1 },
    ]),
  ),
});

describe('summary meta', () => {
  it('divides starts and completions by displays, drop-offs by responses, and averages ttc._total', () => {
    const meta = summaryMeta(
      [
        response({}, { finished: true, ttc: { _total: 4000 } }),
        response({}, { finished: true, ttc: { _total: 2000 } }),
        response({}, { finished: false }),
      ],
      8,
    );
    expect(meta).toEqual({
      displayCount: 8,
      totalResponses: 3,
      startsPercentage: 37.5,
      completedResponses: 2,
      completedPercentage: 25,
      dropOffCount: 1,
      dropOffPercentage: 33.33,
      ttcAverage: 3000,
    });
  });

  it('answers 0 where there is nothing to divide by', () => {
    expect(summaryMeta([], 0)).toMatchObject({ startsPercentage: 0, dropOffPercentage: 0, ttcAverage: 0 });
  });
});

describe('NPS', () => {
  it('counts the dismissed in the total: 2 promoters, 1 passive, 1 detractor, 1 dismissed', () => {
    const summary = npsSummary('q', [
      response({ q: 10 }),
      response({ q: 9 }),
      response({ q: 7 }),
      response({ q: 0 }),
      response({}, { dismissed: ['q'] }),
      response({ other: 'not this question' }),
    ]);
    expect(summary).toEqual({
      type: 'nps',
      questionId: 'q',
      total: 5,
      promoters: { count: 2, percentage: 40 },
      passives: { count: 1, percentage: 20 },
      detractors: { count: 1, percentage: 20 },
      dismissed: { count: 1, percentage: 20 },
      // (2 - 1) / 5 x 100
      score: 20,
    });
  });

  it('scores only dismissals as 0, and weighs groups by their count', () => {
    expect(npsSummary('q', [response({}, { dismissed: ['q'], count: 3 })]).score).toBe(0);
    expect(npsSummary('q', [response({ q: 10 }, { count: 3 }), response({ q: 3 })]).score).toBe(50);
  });
});

describe('rating', () => {
  it('gives percentages of rated plus dismissed, and an average without the dismissed', () => {
    const summary = ratingSummary('r', 5, [
      response({ r: 5 }),
      response({ r: 4 }, { count: 2 }),
      response({}, { dismissed: ['r'] }),
    ]);
    expect(summary.total).toBe(4);
    expect(summary.values.map(({ rating, count, percentage }) => [rating, count, percentage])).toEqual([
      [1, 0, 0],
      [2, 0, 0],
      [3, 0, 0],
      [4, 2, 50],
      [5, 1, 25],
    ]);
    // (5 + 4 + 4) / 3
    expect(summary.average).toBe(4.33);
    expect(summary.dismissed).toEqual({ count: 1, percentage: 25 });
  });
});

describe('CTA', () => {
  it('divides clicks by clicked plus dismissed, not by displays', () => {
    const summary = ctaSummary('c', [
      response({ c: 'clicked' }),
      response({ c: 'dismissed' }, { count: 3 }),
      response({}),
    ]);
    expect(summary).toMatchObject({
      total: 4,
      clicked: { count: 1, percentage: 25 },
      dismissed: { count: 3, percentage: 75 },
    });
  });

  it('has a click-through of 0 with no clicks', () => {
    expect(ctaSummary('c', [response({ c: 'dismissed' })]).clicked).toEqual({ count: 0, percentage: 0 });
    expect(ctaSummary('c', []).clicked).toEqual({ count: 0, percentage: 0 });
  });
});

describe('consent and cal', () => {
  it('counts accepted (booked) against skipped or dismissed', () => {
    const groups = [response({ k: 'accepted' }), response({ k: 'booked' }), response({}, { dismissed: ['k'] })];
    expect(acceptedSummary('consent', 'k', groups)).toMatchObject({
      total: 2,
      accepted: { count: 1, percentage: 50 },
      dismissed: { count: 1, percentage: 50 },
    });
    expect(acceptedSummary('cal', 'k', groups).accepted.count).toBe(1);
  });
});

describe('choices', () => {
  const choices = [
    { id: 'a', label: 'Apples' },
    { id: 'b', label: 'Pears' },
    { id: 'other', label: 'Other' },
  ];

  it('counts single choices, "other" texts under the other choice', () => {
    const summary = choiceSummary({ id: 'q', type: 'multipleChoiceSingle', choices }, [
      response({ q: 'Apples' }, { count: 2 }),
      response({ q: 'Kiwis' }),
      response({ q: '' }),
    ]);
    expect(summary).toEqual({
      type: 'multipleChoiceSingle',
      questionId: 'q',
      total: 3,
      choices: [
        { value: 'Apples', count: 2, percentage: 66.67 },
        { value: 'Pears', count: 0, percentage: 0 },
        { value: 'Other', count: 1, percentage: 33.33, other: true },
      ],
    });
  });

  it('gives multiple choices percentages of the responses, so they add up past 100', () => {
    const summary = choiceSummary({ id: 'q', type: 'multipleChoiceMulti', choices: choices.slice(0, 2) }, [
      response({ q: ['Apples', 'Pears'] }),
      response({ q: ['Apples'] }),
      response({ q: ['Kiwis'] }),
    ]);
    // Without an "other" choice, an unknown answer counts for no choice (but for the total).
    expect(summary.total).toBe(3);
    expect(summary.choices).toEqual([
      { value: 'Apples', count: 2, percentage: 66.67 },
      { value: 'Pears', count: 1, percentage: 33.33 },
    ]);
  });

  it('counts pictures by choice id', () => {
    const summary = choiceSummary({ id: 'p', type: 'pictureSelection', choices: [{ id: 'x' }, { id: 'y' }] }, [
      response({ p: ['y'] }),
    ]);
    expect(summary.choices).toEqual([
      { value: 'x', count: 0, percentage: 0 },
      { value: 'y', count: 1, percentage: 100 },
    ]);
  });
});

describe('drop-off', () => {
  const open = (id: string, extra: Partial<TSurveyQuestion> = {}) =>
    ({ id, type: 'openText', headline: id.toUpperCase(), required: false, ...extra }) as TSurveyQuestion;

  it("walks each response's path: views, drop-offs and average times per question", () => {
    const questions = [open('a'), open('b'), open('c')];
    const result = dropOff(
      { questions, welcomeCard: { enabled: true } as never },
      [
        response({ a: 'x', b: 'x', c: 'x' }, { ttc: { a: 1000, b: 2000, c: 3000 } }),
        // Answered a, left at b.
        response({ a: 'x' }, { finished: false, ttc: { a: 3000 } }),
        // Skipped everything and left at the last question.
        response({}, { finished: false }),
      ],
      10,
    );
    expect(
      result.map(({ questionId, views, dropOffCount, dropOffPercentage, ttc }) => [
        questionId,
        views,
        dropOffCount,
        dropOffPercentage,
        ttc,
      ]),
    ).toEqual([
      ['a', 3, 0, 0, 2000],
      ['b', 3, 1, 33.33, 2000],
      ['c', 2, 1, 50, 3000],
    ]);
  });

  it('counts displays without a response as drop-offs at the first question when there is no welcome card', () => {
    const result = dropOff(
      { questions: [open('a', { required: true })], welcomeCard: { enabled: false } as never },
      [response({ a: 'x' }, { count: 3 })],
      4,
    );
    expect(result[0]).toMatchObject({ views: 4, dropOffCount: 1, dropOffPercentage: 25 });
  });

  it('follows logic jumps', () => {
    const questions = [
      { ...open('a'), logic: [{ condition: 'submitted', destination: 'c' }] } as TSurveyQuestion,
      open('b'),
      open('c'),
    ];
    const result = dropOff({ questions, welcomeCard: { enabled: true } as never }, [response({ a: 'x', c: 'y' })], 1);
    expect(result.map((q) => q.views)).toEqual([1, 0, 1]);
  });
});
