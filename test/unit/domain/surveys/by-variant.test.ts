import { describe, expect, it } from 'vitest';
import { compareEstimates, MIN_ANSWERS, npsEstimate, ratingEstimate } from '../../../../domain/surveys/by-variant';

const nps = (promoters: number, passives: number, detractors: number, dismissed = 0) => {
  const total = promoters + passives + detractors + dismissed;
  return {
    total,
    promoters: { count: promoters, percentage: 0 },
    detractors: { count: detractors, percentage: 0 },
    score: Math.round(((promoters - detractors) / total) * 10000) / 100,
  };
};

describe('feedback by variant', () => {
  it("gives NPS a 95% interval from the answers' +100/0/-100 scores", () => {
    // 50 promoters, 30 passives, 20 detractors: NPS 30; p = 0.5, d = 0.2,
    // variance = 10000 (0.7 - 0.09) / 100 = 61, margin = 1.959964 * sqrt(61) = 15.31.
    const estimate = npsEstimate(nps(50, 30, 20));
    expect(estimate).toMatchObject({ n: 100, value: 30, low: 14.69, high: 45.31 });
    expect(estimate.variance).toBeCloseTo(61, 10);
  });

  it('counts dismissed answers in the NPS total, as the score does', () => {
    const estimate = npsEstimate(nps(5, 0, 5, 10));
    expect(estimate.n).toBe(20);
    expect(estimate.value).toBe(0);
    // p = d = 0.25: variance = 10000 * 0.5 / 20 = 250.
    expect(estimate.variance).toBeCloseTo(250, 10);
  });

  it('gives a mean rating the interval of the sample mean, dismissed excluded', () => {
    // Ratings 1 x4, 3 x4, 5 x4: mean 3, sample variance 32/11, of the mean 32/132.
    const estimate = ratingEstimate({
      values: [
        { rating: 1, count: 4, percentage: 0 },
        { rating: 2, count: 0, percentage: 0 },
        { rating: 3, count: 4, percentage: 0 },
        { rating: 4, count: 0, percentage: 0 },
        { rating: 5, count: 4, percentage: 0 },
      ],
    });
    const margin = 1.959964 * Math.sqrt(32 / 132);
    expect(estimate).toMatchObject({ n: 12, value: 3 });
    expect(estimate.low).toBeCloseTo(3 - margin, 2);
    expect(estimate.high).toBeCloseTo(3 + margin, 2);
  });

  it(`gives no interval below ${MIN_ANSWERS} answers, and then cannot tell two values apart`, () => {
    const few = npsEstimate(nps(9, 0, 0));
    expect(few).toMatchObject({ n: 9, value: 100, low: null, high: null, variance: null });
    expect(compareEstimates(few, npsEstimate(nps(0, 0, 50)))).toBe('too small to tell');
    expect(
      npsEstimate({
        total: 0,
        promoters: { count: 0, percentage: 0 },
        detractors: { count: 0, percentage: 0 },
        score: 0,
      }).low,
    ).toBeNull();
  });

  it('tells a higher or lower score only when the interval of the difference excludes zero', () => {
    const high = npsEstimate(nps(70, 20, 10)); // 60
    const low = npsEstimate(nps(30, 30, 40)); // -10
    expect(compareEstimates(high, low)).toBe('higher');
    expect(compareEstimates(low, high)).toBe('lower');
    const close = npsEstimate(nps(52, 28, 20)); // 32 against 30, 100 answers each
    expect(compareEstimates(close, npsEstimate(nps(50, 30, 20)))).toBe('too small to tell');
  });
});
