/**
 * The statistics behind a feedback guard: running moments per arm, an always-valid confidence sequence for the
 * difference of two arms' means, and the sample-ratio check. Pure functions, no I/O.
 *
 * A guard reads its interval after every answer. A fixed-horizon interval read that often would exclude zero by
 * chance far more often than its nominal rate; a confidence sequence holds at every sample size at once, so it
 * may be read as often as we like.
 */

/** Running sums of one arm's observations: its mean and variance, updated one answer at a time. */
export interface Moments {
  n: number;
  sum: number;
  sumOfSquares: number;
}

export const NO_MOMENTS: Moments = { n: 0, sum: 0, sumOfSquares: 0 };

export function addObservation(moments: Moments, value: number): Moments {
  return { n: moments.n + 1, sum: moments.sum + value, sumOfSquares: moments.sumOfSquares + value * value };
}

export function mergeMoments(a: Moments, b: Moments): Moments {
  return { n: a.n + b.n, sum: a.sum + b.sum, sumOfSquares: a.sumOfSquares + b.sumOfSquares };
}

export const meanOf = (moments: Moments): number => (moments.n === 0 ? 0 : moments.sum / moments.n);

/** The unbiased sample variance of the observations (0 below two). */
export function varianceOf(moments: Moments): number {
  if (moments.n < 2) return 0;
  const mean = moments.sum / moments.n;
  return Math.max(0, (moments.sumOfSquares - moments.n * mean * mean) / (moments.n - 1));
}

export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
}

/**
 * A (1 - alpha) confidence sequence for mean(treatment) - mean(baseline), valid at every sample size at once.
 *
 * Derivation (the normal-mixture sequential probability ratio test, Robbins 1970; in the A/B form of Johari,
 * Pekelis and Walsh, "Always Valid Inference", 2017). Let D be the observed difference and V its variance,
 * s_b^2/n_b + s_t^2/n_t. For a true difference theta, the likelihood ratio of "effect theta + delta" against
 * "effect theta", mixed over delta ~ N(0, tau^2), is
 *   L = sqrt(V / (V + tau^2)) * exp(tau^2 (D - theta)^2 / (2 V (V + tau^2))),
 * a nonnegative martingale with mean 1 under theta. By Ville's inequality it ever exceeds 1/alpha with
 * probability at most alpha, so the thetas where L < 1/alpha form the sequence:
 *   |D - theta| < sqrt(2 V (V + tau^2) / tau^2 * ln(sqrt((V + tau^2) / V) / alpha)).
 * With the arms' variances estimated from the data the guarantee holds asymptotically (Waudby-Smith et al.,
 * "Time-uniform central limit theory and asymptotic confidence sequences", 2023). The mixture scale tau is
 * where the test is most powerful: the smallest difference that matters.
 */
export function differenceSequence(
  baseline: Moments,
  treatment: Moments,
  alpha: number,
  mixtureScale: number,
): Interval {
  const estimate = meanOf(treatment) - meanOf(baseline);
  const variance = varianceOf(baseline) / Math.max(1, baseline.n) + varianceOf(treatment) / Math.max(1, treatment.n);
  if (variance === 0) return { estimate, lower: estimate, upper: estimate };
  const tau2 = mixtureScale * mixtureScale;
  const halfWidth = Math.sqrt(
    ((2 * variance * (variance + tau2)) / tau2) * Math.log(Math.sqrt((variance + tau2) / variance) / alpha),
  );
  return { estimate, lower: estimate - halfWidth, upper: estimate + halfWidth };
}

/** ln Gamma(x) for x > 0, by Lanczos' approximation (g = 7, nine coefficients; relative error below 1e-13). */
function logGamma(x: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const shifted = x - 1;
  let series = coefficients[0];
  for (let i = 1; i < coefficients.length; i++) series += coefficients[i] / (shifted + i);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(series);
}

/**
 * The regularised upper incomplete gamma function Q(s, x): by its power series where x < s + 1, else by its
 * continued fraction (evaluated with the modified Lentz method), the two forms that converge fast there.
 */
function upperGamma(s: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefactor = s * Math.log(x) - x - logGamma(s);
  if (x < s + 1) {
    let term = 1 / s;
    let sum = term;
    for (let k = 1; k < 1000 && Math.abs(term) > Math.abs(sum) * 1e-15; k++) {
      term *= x / (s + k);
      sum += term;
    }
    return 1 - sum * Math.exp(logPrefactor);
  }
  const tiny = 1e-300;
  let b = x + 1 - s;
  let c = 1 / tiny;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i < 1000; i++) {
    const a = -i * (i - s);
    b += 2;
    d = a * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + a / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return fraction * Math.exp(logPrefactor);
}

/** P(X >= statistic) for X chi-square distributed with `degrees` degrees of freedom. */
export function chiSquareSurvival(statistic: number, degrees: number): number {
  return Math.min(1, Math.max(0, upperGamma(degrees / 2, statistic / 2)));
}

/**
 * Pearson's chi-square goodness-of-fit of observed counts against the shares they were meant to have (the flag's
 * configured split); arms meant to get nothing are left out. Its p-value: 1 when nothing was observed.
 */
export function sampleRatioPValue(observed: readonly number[], shares: readonly number[]): number {
  const arms = observed.map((count, i) => ({ count, share: shares[i] ?? 0 })).filter((arm) => arm.share > 0);
  const total = arms.reduce((sum, arm) => sum + arm.count, 0);
  const shareTotal = arms.reduce((sum, arm) => sum + arm.share, 0);
  if (total === 0 || arms.length < 2) return 1;
  let statistic = 0;
  for (const arm of arms) {
    const expected = (total * arm.share) / shareTotal;
    statistic += (arm.count - expected) ** 2 / expected;
  }
  return chiSquareSurvival(statistic, arms.length - 1);
}
