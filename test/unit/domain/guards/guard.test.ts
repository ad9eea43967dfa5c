import { describe, expect, it } from 'vitest';
import { armOfAssignment, expectedShares, linkValueOfArm, rolledBack } from '../../../../domain/guards/guard.js';
import type { FlagState } from '../../../../domain/flipt/history.js';
import type { Distribution, Flag, Rollout, Rule, Variant } from '../../../../domain/flipt/types.js';

const at = '2026-01-01T00:00:00Z';
const variant = (key: string): Variant => ({
  id: `id-${key}`,
  flagKey: 'f',
  key,
  name: key,
  description: '',
  createdAt: at,
  updatedAt: at,
  attachment: '',
  namespaceKey: 'default',
});
const flag = (type: Flag['type'], extra: Partial<Flag> = {}): Flag => ({
  key: 'f',
  name: 'f',
  description: '',
  enabled: true,
  createdAt: at,
  updatedAt: at,
  variants: ['a', 'b', 'c'].map(variant),
  namespaceKey: 'default',
  type,
  ...extra,
});
const distribution = (key: string, rollout: number): Distribution => ({
  id: `d-${key}`,
  ruleId: 'r',
  variantId: `id-${key}`,
  rollout,
  createdAt: at,
  updatedAt: at,
});
const rule = (id: string, distributions: Distribution[]): Rule => ({
  id,
  flagKey: 'f',
  segmentKey: 'everyone',
  distributions,
  rank: 1,
  createdAt: at,
  updatedAt: at,
  namespaceKey: 'default',
  segmentKeys: [],
  segmentOperator: 'OR_SEGMENT_OPERATOR',
});
const rollout = (id: string, fields: Partial<Rollout>): Rollout => ({
  id,
  namespaceKey: 'default',
  flagKey: 'f',
  type: 'THRESHOLD_ROLLOUT_TYPE',
  rank: 1,
  description: '',
  createdAt: at,
  updatedAt: at,
  ...fields,
});

describe('a guard rolling a flag back', () => {
  it("moves the regressed variant's share to the baseline in every rule, and its default", () => {
    const state: FlagState = {
      flag: flag('VARIANT_FLAG_TYPE', { defaultVariant: variant('b') }),
      rules: [
        rule('r1', [distribution('a', 50), distribution('b', 50)]),
        rule('r2', [distribution('b', 30), distribution('c', 70)]),
        rule('r3', [distribution('c', 100)]),
      ],
      rollouts: [],
    };
    const after = rolledBack(state, 'b', 'a');
    expect(after.flag.defaultVariant?.key).toBe('a');
    expect(after.rules[0].distributions.map((d) => [d.variantId, d.rollout])).toEqual([['id-a', 100]]);
    expect(after.rules[1].distributions.map((d) => [d.variantId, d.rollout])).toEqual([
      ['id-a', 30],
      ['id-c', 70],
    ]);
    expect(after.rules[2]).toBe(state.rules[2]);
  });

  it("serves the baseline value from a boolean flag's rollouts and default that served the regressed one", () => {
    const state: FlagState = {
      flag: flag('BOOLEAN_FLAG_TYPE', { variants: [], enabled: true }),
      rules: [],
      rollouts: [
        rollout('t', { threshold: { percentage: 40, value: true } }),
        rollout('s', {
          type: 'SEGMENT_ROLLOUT_TYPE',
          segment: { segmentKey: 'beta', value: false, segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' },
        }),
      ],
    };
    const after = rolledBack(state, 'true', 'false');
    expect(after.flag.enabled).toBe(false);
    expect(after.rollouts[0].threshold).toEqual({ percentage: 40, value: false });
    expect(after.rollouts[1]).toBe(state.rollouts[1]);
  });

  it('leaves a flag without the variants unchanged', () => {
    const state: FlagState = { flag: flag('VARIANT_FLAG_TYPE'), rules: [], rollouts: [] };
    expect(rolledBack(state, 'x', 'a')).toBe(state);
  });
});

describe("a guard's expected split", () => {
  it("reads the first rule distributing to the baseline, or a boolean flag's threshold", () => {
    const variants: FlagState = {
      flag: flag('VARIANT_FLAG_TYPE'),
      rules: [rule('r1', [distribution('c', 100)]), rule('r2', [distribution('a', 45), distribution('b', 55)])],
      rollouts: [],
    };
    expect([...(expectedShares(variants, ['a', 'b'], 'a') ?? [])]).toEqual([
      ['a', 45],
      ['b', 55],
    ]);
    const boolean: FlagState = {
      flag: flag('BOOLEAN_FLAG_TYPE', { variants: [] }),
      rules: [],
      rollouts: [rollout('t', { threshold: { percentage: 30, value: true } })],
    };
    expect([...(expectedShares(boolean, ['false', 'true'], 'false') ?? [])]).toEqual([
      ['false', 70],
      ['true', 30],
    ]);
    expect(expectedShares({ ...boolean, rollouts: [] }, ['false', 'true'], 'false')).toBeUndefined();
  });

  it('names arms as guards do and links as surveys do', () => {
    expect(armOfAssignment('enabled')).toBe('true');
    expect(armOfAssignment('disabled')).toBe('false');
    expect(armOfAssignment('b')).toBe('b');
    expect(linkValueOfArm('true', 'BOOLEAN_FLAG_TYPE')).toBe('enabled');
    expect(linkValueOfArm('true', 'VARIANT_FLAG_TYPE')).toBe('true');
  });
});
