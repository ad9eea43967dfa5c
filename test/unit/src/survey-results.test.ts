import { describe, expect, it } from 'vitest';
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
