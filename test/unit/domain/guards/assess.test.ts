import { describe, expect, it } from 'vitest';
import { assessGuard, type GuardArm, type GuardSettings, observationOf } from '../../../../domain/guards/assess.js';
import { addObservation, NO_MOMENTS } from '../../../../domain/guards/statistics.js';

const arm = (key: string, answers: number[], displays = answers.length, expectedShare = 50): GuardArm => ({
  key,
  displays,
  expectedShare,
  answers: answers.reduce(addObservation, NO_MOMENTS),
});
/** n answers, `ones` of them 1 and the rest 0. */
const shares = (n: number, ones: number) => Array.from({ length: n }, (_, i) => (i < ones ? 1 : 0));

const share: GuardSettings = {
  measure: { kind: 'share', choice: 'yes' },
  minimumRegression: 0.05,
  errorRate: 0.05,
  minimumSample: 100,
};

describe('observationOf', () => {
  it('scores NPS answers +100, 0 or -100, so their mean is the NPS', () => {
    const nps = { kind: 'nps' } as const;
    expect([0, 6, 7, 8, 9, 10].map((answer) => observationOf(nps, answer))).toEqual([-100, -100, 0, 0, 100, 100]);
    expect(observationOf(nps, 'ten')).toBeUndefined();
    expect(observationOf(nps, Number.NaN)).toBeUndefined();
  });

  it('reads a rating as itself and a choice as 1 when it names the choice, single or multiple', () => {
    expect(observationOf({ kind: 'rating' }, 4)).toBe(4);
    expect(observationOf({ kind: 'rating' }, undefined)).toBeUndefined();
    const measure = { kind: 'share', choice: 'yes' } as const;
    expect(observationOf(measure, 'yes')).toBe(1);
    expect(observationOf(measure, 'Yes')).toBe(0);
    expect(observationOf(measure, ['no', 'yes'])).toBe(1);
    expect(observationOf(measure, ['no'])).toBe(0);
    expect(observationOf(measure, 3)).toBeUndefined();
  });
});

describe('assessGuard', () => {
  it('collects until every arm has the minimum sample, naming the arms short of it', () => {
    const assessment = assessGuard(arm('a', shares(100, 5)), [arm('b', shares(60, 30))], share);
    expect(assessment.state).toBe('COLLECTING');
    expect(assessment.reason).toBe('needs 100 answers per arm (b has 60)');
    expect(assessment.difference).toBeNull();
  });

  it('trips when a problem answer grows: a larger share is worse', () => {
    const assessment = assessGuard(arm('a', shares(2000, 100)), [arm('b', shares(2000, 300))], share);
    expect(assessment).toMatchObject({ state: 'REGRESSED', arm: 'b' });
    expect(assessment.difference!.estimate).toBeCloseTo(0.1, 12);
    expect(assessment.difference!.lower).toBeGreaterThan(0);
  });

  it('trips when a rating falls, and is healthy once a regression of the minimum size is ruled out', () => {
    const rating: GuardSettings = { ...share, measure: { kind: 'rating' }, minimumRegression: 0.3 };
    const high = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? 4 : 5));
    const low = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? 3 : 5));
    expect(assessGuard(arm('a', high), [arm('b', low)], rating).state).toBe('REGRESSED');
    const healthy = assessGuard(arm('a', high), [arm('b', high)], rating);
    expect(healthy.state).toBe('HEALTHY');
    expect(healthy.difference!.lower).toBeGreaterThan(-0.3);
    expect(assessGuard(arm('a', high), [arm('b', high.slice(0, 99), 2000)], rating).state).toBe('COLLECTING');
  });

  it('reports the worst of several guarded arms', () => {
    const assessment = assessGuard(
      arm('a', shares(3000, 150), 3000, 34),
      [arm('b', shares(3000, 160), 3000, 33), arm('c', shares(3000, 450), 3000, 33)],
      share,
    );
    expect(assessment).toMatchObject({ state: 'REGRESSED', arm: 'c' });
  });

  it('holds back on a sample-ratio mismatch, whatever the answers say', () => {
    const assessment = assessGuard(arm('a', shares(2000, 100), 1800), [arm('b', shares(2000, 400), 2200)], share);
    expect(assessment.state).toBe('SAMPLE_RATIO_MISMATCH');
    expect(assessment.reason).toMatch(/^displays per arm \(a 1800, b 2200\) do not match the flag's split \(p = /);
  });
});
