/**
 * A feedback guard's verdict on a flag: from each arm's displays and answers (one arm per variant, or per value
 * of a boolean flag), whether the guarded arms answer worse than the baseline by enough to act.
 */
import { differenceSequence, type Interval, type Moments, sampleRatioPValue } from './statistics.js';

/** Below this p-value the displays' split is taken to differ from the flag's: the comparison is not trusted. */
export const SAMPLE_RATIO_ALARM = 0.001;

export const GUARD_STATES = ['COLLECTING', 'HEALTHY', 'REGRESSED', 'SAMPLE_RATIO_MISMATCH'] as const;
export type GuardState = (typeof GUARD_STATES)[number];

/** What is measured from one answer to the guard's question. */
export type Measure =
  | { kind: 'nps' }
  | { kind: 'rating' }
  /** The share of answers naming `choice`: a share that grows is a regression ("Is something broken?": yes). */
  | { kind: 'share'; choice: string };

export interface GuardSettings {
  measure: Measure;
  /** The smallest regression that matters, in the measure's units (NPS points, rating steps, share 0..1). */
  minimumRegression: number;
  /** The chance of tripping when nothing regressed, over the whole life of the guard. */
  errorRate: number;
  /** Answers each compared arm needs before the guard may act. */
  minimumSample: number;
}

export interface GuardArm {
  /** The variant key, or "true" / "false" for a boolean flag. */
  key: string;
  displays: number;
  /** The share of displays the flag's configuration gives this arm (any scale). */
  expectedShare: number;
  answers: Moments;
}

export interface Assessment {
  state: GuardState;
  /** The arm the verdict is about: the worst-placed guarded arm. */
  arm: string | null;
  /** Its mean minus the baseline's, with the always-valid interval. */
  difference: Interval | null;
  /** The sample-ratio check's p-value over every arm's displays. */
  sampleRatioP: number;
  reason: string;
}

/**
 * The value one answer contributes: NPS scores +100 (promoter, 9-10), 0 (passive) or -100 (detractor, 0-6), so
 * the mean is the NPS; a rating is itself; a choice answer is 1 when it names the choice. Undefined when the
 * answer does not count (skipped, or not the kind of value the measure reads).
 */
export function observationOf(measure: Measure, answer: unknown): number | undefined {
  if (measure.kind === 'share') {
    if (typeof answer === 'string') return answer === measure.choice ? 1 : 0;
    if (Array.isArray(answer)) return answer.includes(measure.choice) ? 1 : 0;
    return undefined;
  }
  if (typeof answer !== 'number' || !Number.isFinite(answer)) return undefined;
  if (measure.kind === 'rating') return answer;
  return answer >= 9 ? 100 : answer <= 6 ? -100 : 0;
}

/** +1 when a larger value is better (NPS, rating), -1 when it is worse (the share of a problem answer). */
const betterSign = (measure: Measure) => (measure.kind === 'share' ? -1 : 1);

/**
 * The guard's state. A sample-ratio mismatch holds everything back (the arms are not comparable). Each guarded arm
 * is compared with the baseline at errorRate split evenly over the comparisons (Bonferroni): REGRESSED when an
 * arm's interval lies wholly on the worse side of zero, HEALTHY when every arm has ruled out a regression of the
 * minimum size, else COLLECTING.
 */
export function assessGuard(baseline: GuardArm, guarded: readonly GuardArm[], settings: GuardSettings): Assessment {
  const arms = [baseline, ...guarded];
  const sampleRatioP = sampleRatioPValue(
    arms.map((arm) => arm.displays),
    arms.map((arm) => arm.expectedShare),
  );
  if (sampleRatioP < SAMPLE_RATIO_ALARM) {
    return {
      state: 'SAMPLE_RATIO_MISMATCH',
      arm: null,
      difference: null,
      sampleRatioP,
      reason: `displays per arm (${arms.map((arm) => `${arm.key} ${arm.displays}`).join(', ')}) do not match the flag's split (p = ${sampleRatioP.toExponential(1)})`,
    };
  }
  const short = arms.filter((arm) => arm.answers.n < settings.minimumSample);
  if (short.length > 0) {
    return {
      state: 'COLLECTING',
      arm: null,
      difference: null,
      sampleRatioP,
      reason: `needs ${settings.minimumSample} answers per arm (${short.map((arm) => `${arm.key} has ${arm.answers.n}`).join(', ')})`,
    };
  }
  const sign = betterSign(settings.measure);
  const alpha = settings.errorRate / Math.max(1, guarded.length);
  const compared = guarded.map((arm) => {
    const difference = differenceSequence(baseline.answers, arm.answers, alpha, settings.minimumRegression);
    // The bound on the worse side, and the better one, in "higher is better" terms.
    const worst = sign > 0 ? difference.upper : -difference.lower;
    const best = sign > 0 ? difference.lower : -difference.upper;
    return { arm, difference, worst, best };
  });
  const regressed = compared.filter((entry) => entry.worst < 0).sort((a, b) => a.worst - b.worst)[0];
  if (regressed) {
    return {
      state: 'REGRESSED',
      arm: regressed.arm.key,
      difference: regressed.difference,
      sampleRatioP,
      reason: `${regressed.arm.key} answers worse than ${baseline.key}`,
    };
  }
  const weakest = [...compared].sort((a, b) => a.best - b.best)[0];
  const healthy = compared.every((entry) => entry.best > -settings.minimumRegression);
  return {
    state: healthy ? 'HEALTHY' : 'COLLECTING',
    arm: weakest?.arm.key ?? null,
    difference: weakest?.difference ?? null,
    sampleRatioP,
    reason: healthy
      ? `no arm is worse than ${baseline.key} by ${settings.minimumRegression} or more`
      : 'not yet enough answers to tell',
  };
}
