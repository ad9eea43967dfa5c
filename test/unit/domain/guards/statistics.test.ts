import { describe, expect, it } from 'vitest';
import {
  addObservation,
  chiSquareSurvival,
  differenceSequence,
  meanOf,
  mergeMoments,
  NO_MOMENTS,
  sampleRatioPValue,
  varianceOf,
} from '../../../../domain/guards/statistics.js';

const momentsOf = (values: number[]) => values.reduce(addObservation, NO_MOMENTS);

describe('moments', () => {
  it('give the mean and the unbiased variance, merged or built one value at a time', () => {
    const all = momentsOf([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(meanOf(all)).toBe(5);
    expect(varianceOf(all)).toBeCloseTo(32 / 7, 12);
    expect(mergeMoments(momentsOf([2, 4, 4, 4]), momentsOf([5, 5, 7, 9]))).toEqual(all);
    expect(varianceOf(momentsOf([3]))).toBe(0);
    expect(meanOf(NO_MOMENTS)).toBe(0);
  });
});

describe('chiSquareSurvival', () => {
  // Critical values from the chi-square table: P(X >= value) for the degrees of freedom.
  it.each([
    [3.841459, 1, 0.05],
    [10.827566, 1, 0.001],
    [0.454936, 1, 0.5],
    [5.991465, 2, 0.05],
    [13.815511, 2, 0.001],
    [18.307038, 10, 0.05],
    [2.55821, 10, 0.99],
    [124.342113, 100, 0.05],
  ])('P(chi2 >= %f, %i dof) = %f', (statistic, degrees, p) => {
    expect(chiSquareSurvival(statistic, degrees)).toBeCloseTo(p, 5);
  });

  it('is 1 at zero and falls towards 0', () => {
    expect(chiSquareSurvival(0, 3)).toBe(1);
    expect(chiSquareSurvival(400, 3)).toBeLessThan(1e-80);
  });
});

describe('sampleRatioPValue', () => {
  it('compares counts with the configured shares, leaving out arms meant to get nothing', () => {
    expect(sampleRatioPValue([500, 500], [50, 50])).toBe(1);
    expect(sampleRatioPValue([900, 1100], [50, 50])).toBeCloseTo(chiSquareSurvival(20, 1), 12);
    expect(sampleRatioPValue([300, 700, 0], [30, 70, 0])).toBe(1);
    expect(sampleRatioPValue([0, 0], [50, 50])).toBe(1);
    expect(sampleRatioPValue([10, 5], [100, 0])).toBe(1);
  });
});

describe('differenceSequence', () => {
  it('is centred on the difference of means and wider than a fixed-horizon 95% interval', () => {
    const baseline = momentsOf(Array.from({ length: 400 }, (_, i) => (i % 5) + 1));
    const treatment = momentsOf(Array.from({ length: 400 }, (_, i) => (i % 4) + 1));
    const interval = differenceSequence(baseline, treatment, 0.05, 0.3);
    expect(interval.estimate).toBeCloseTo(2.5 - 3, 12);
    const standardError = Math.sqrt(varianceOf(baseline) / 400 + varianceOf(treatment) / 400);
    expect(interval.upper - interval.estimate).toBeGreaterThan(1.96 * standardError);
    expect(interval.estimate - interval.lower).toBeCloseTo(interval.upper - interval.estimate, 12);
  });

  it('narrows as answers come in', () => {
    const widths = [50, 500, 5000].map((n) => {
      const arm = momentsOf(Array.from({ length: n }, (_, i) => i % 3));
      const interval = differenceSequence(arm, arm, 0.05, 0.3);
      return interval.upper - interval.lower;
    });
    expect(widths[1]).toBeLessThan(widths[0]);
    expect(widths[2]).toBeLessThan(widths[1]);
  });
});
