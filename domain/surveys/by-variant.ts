/**
 * Feedback by flag variant: a survey's NPS and rating scores per value of its linked flag, each with a
 * 95% confidence interval, and whether two values can be told apart. Intervals use the normal
 * approximation; below MIN_ANSWERS answers a value's interval is not given ("too small to tell").
 */
import type { NpsSummary, RatingSummary } from './summary.js';

/** Fewer answers than this give no interval: the normal approximation does not hold. */
export const MIN_ANSWERS = 10;
const Z95 = 1.959964;

export interface Estimate {
  /** The answers counted (NPS: every response that saw the question, dismissed included, as the score counts them). */
  n: number;
  /** NPS -100..100, or the mean rating. */
  value: number;
  /** The 95% interval, or null when there are fewer than MIN_ANSWERS answers. */
  low: number | null;
  high: number | null;
  /** The estimate's variance (of the mean), to compare two values; null below MIN_ANSWERS. */
  variance: number | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function estimate(n: number, value: number, variance: number): Estimate {
  if (n < MIN_ANSWERS) return { n, value, low: null, high: null, variance: null };
  const margin = Z95 * Math.sqrt(variance);
  return { n, value, low: round2(value - margin), high: round2(value + margin), variance };
}

/**
 * NPS = 100 (p - d) over promoters p and detractors d as shares of the total; each answer scores
 * +100, 0 or -100, so the score's variance is 100^2 (p + d - (p - d)^2) / n.
 */
export function npsEstimate(summary: Pick<NpsSummary, 'total' | 'promoters' | 'detractors' | 'score'>): Estimate {
  const n = summary.total;
  if (n === 0) return { n, value: 0, low: null, high: null, variance: null };
  const p = summary.promoters.count / n;
  const d = summary.detractors.count / n;
  return estimate(n, summary.score, (100 * 100 * (p + d - (p - d) ** 2)) / n);
}

/** The mean rating with the sample variance of the ratings over n (dismissed answers excluded). */
export function ratingEstimate(summary: Pick<RatingSummary, 'values'>): Estimate {
  let n = 0;
  let sum = 0;
  for (const { rating, count } of summary.values) {
    n += count;
    sum += rating * count;
  }
  if (n === 0) return { n, value: 0, low: null, high: null, variance: null };
  const mean = sum / n;
  let squares = 0;
  for (const { rating, count } of summary.values) squares += count * (rating - mean) ** 2;
  const sampleVariance = n > 1 ? squares / (n - 1) : 0;
  return estimate(n, round2(mean), sampleVariance / n);
}

export type Verdict = 'higher' | 'lower' | 'too small to tell';

/**
 * Whether `a` scores higher or lower than `b`: the 95% interval of the difference excludes 0.
 * Otherwise, or when either has too few answers, "too small to tell".
 */
export function compareEstimates(a: Estimate, b: Estimate): Verdict {
  if (a.variance === null || b.variance === null) return 'too small to tell';
  const margin = Z95 * Math.sqrt(a.variance + b.variance);
  const difference = a.value - b.value;
  if (difference - margin > 0) return 'higher';
  if (difference + margin < 0) return 'lower';
  return 'too small to tell';
}
