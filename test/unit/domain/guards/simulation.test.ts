import { describe, expect, it } from 'vitest';
import { assessGuard, type GuardArm, type GuardSettings } from '../../../../domain/guards/assess.js';
import { addObservation, NO_MOMENTS } from '../../../../domain/guards/statistics.js';
import { generator, type Random } from '../../../support/random.js';

// Seeded simulations of a guard that looks after every answer, as the server's guard does. Each run draws
// visitors into two arms at the flag's 50/50 split; every visitor sees the survey and answers it.

const RUNS = 1000;
const RATINGS = [1, 2, 3, 4, 5];
/** A baseline rating distribution (mean 3.75) and one 0.30 lower (mean 3.45). */
const BASELINE = [0.05, 0.1, 0.2, 0.35, 0.3];
const REGRESSED = [0.08, 0.15, 0.23, 0.32, 0.22];
const TRUE_DIFFERENCE = -0.3;

const SETTINGS: GuardSettings = {
  measure: { kind: 'rating' },
  minimumRegression: 0.3,
  errorRate: 0.05,
  minimumSample: 50,
};

function draw(random: Random, weights: readonly number[]): number {
  let left = random.next();
  for (let i = 0; i < weights.length; i++) {
    left -= weights[i];
    if (left < 0) return RATINGS[i];
  }
  return RATINGS[RATINGS.length - 1];
}

interface Run {
  /** Answers in the guarded arm when the guard tripped, or null. */
  trippedAt: number | null;
  /** Whether every interval the guard reported held the true difference. */
  covered: boolean;
}

function simulate(seed: number, guardedWeights: readonly number[], trueDifference: number, answersPerArm: number): Run {
  const random = generator(seed);
  const arm = (key: string): GuardArm => ({ key, displays: 0, expectedShare: 50, answers: NO_MOMENTS });
  const baseline = arm('a');
  const guarded = arm('b');
  let covered = true;
  while (baseline.answers.n < answersPerArm || guarded.answers.n < answersPerArm) {
    const into = random.next() < 0.5 ? baseline : guarded;
    into.displays++;
    into.answers = addObservation(into.answers, draw(random, into === baseline ? BASELINE : guardedWeights));
    const assessment = assessGuard(baseline, [guarded], SETTINGS);
    const difference = assessment.difference;
    if (difference && (difference.lower > trueDifference || difference.upper < trueDifference)) covered = false;
    if (assessment.state === 'REGRESSED') return { trippedAt: guarded.answers.n, covered };
  }
  return { trippedAt: null, covered };
}

/** The Wilson score interval (95%) of a binomial share, to report a simulated rate honestly. */
function wilson(successes: number, n: number): [number, number] {
  const z = 1.959964;
  const p = successes / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const margin = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [centre - margin, centre + margin];
}

const describeRate = (label: string, count: number) => {
  const [low, high] = wilson(count, RUNS);
  return `${label}: ${count}/${RUNS} = ${((100 * count) / RUNS).toFixed(1)}% (95% CI ${(100 * low).toFixed(1)}-${(100 * high).toFixed(1)}%)`;
};

describe('a guard checked after every answer', () => {
  it('trips in at most 5% of runs when nothing regressed (5,000 answers per arm), and its intervals hold', {
    timeout: 60_000,
  }, () => {
    const runs = Array.from({ length: RUNS }, (_, i) => simulate(1000 + i, BASELINE, 0, 5000));
    const tripped = runs.filter((run) => run.trippedAt !== null).length;
    const covered = runs.filter((run) => run.covered).length;
    console.info(describeRate('false trips', tripped));
    console.info(describeRate('intervals covering the true difference throughout', covered));
    expect(tripped / RUNS).toBeLessThanOrEqual(0.05);
    expect(covered / RUNS).toBeGreaterThanOrEqual(0.94);
  });

  it('catches a regression of the stated size in at least 90% of runs by 1,000 answers per arm', () => {
    const runs = Array.from({ length: RUNS }, (_, i) => simulate(5000 + i, REGRESSED, TRUE_DIFFERENCE, 1000));
    const detections = runs.flatMap((run) => (run.trippedAt === null ? [] : [run.trippedAt])).sort((a, b) => a - b);
    const covered = runs.filter((run) => run.covered).length;
    console.info(describeRate('regressions caught by 1,000 answers per arm', detections.length));
    console.info(`median answers per arm to detection: ${detections[Math.floor(detections.length / 2)]}`);
    console.info(describeRate('intervals covering the true difference until the trip', covered));
    expect(detections.length / RUNS).toBeGreaterThanOrEqual(0.9);
    expect(covered / RUNS).toBeGreaterThanOrEqual(0.94);
  });
});

/** Runs in which 4,000 displays drawn with `shareOfA` going to `a` of a 50/50 flag raise the sample-ratio alarm. */
function sampleRatioAlarms(seed: number, shareOfA: number): number {
  let alarms = 0;
  for (let run = 0; run < RUNS; run++) {
    const random = generator(seed + run);
    const displays = [0, 0];
    for (let i = 0; i < 4000; i++) displays[random.next() < shareOfA ? 0 : 1]++;
    const arm = (key: string, count: number): GuardArm => ({
      key,
      displays: count,
      expectedShare: 50,
      answers: NO_MOMENTS,
    });
    if (assessGuard(arm('a', displays[0]), [arm('b', displays[1])], SETTINGS).state === 'SAMPLE_RATIO_MISMATCH') {
      alarms++;
    }
  }
  return alarms;
}

describe('the sample-ratio check', () => {
  it('raises its alarm in at least 95% of runs when a 50/50 flag shows 45/55 over 2,000 displays per arm', () => {
    const alarms = sampleRatioAlarms(9000, 0.45);
    console.info(describeRate('sample-ratio alarms at 45/55', alarms));
    expect(alarms / RUNS).toBeGreaterThanOrEqual(0.95);
  });

  it('stays quiet on a true 50/50 split in at least 99% of runs', () => {
    expect(sampleRatioAlarms(20000, 0.5) / RUNS).toBeLessThanOrEqual(0.01);
  });
});
