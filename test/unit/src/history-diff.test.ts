import { describe, expect, it } from 'vitest';
import type { FlagState } from '../../../domain/flipt/history';
import type { Flag, Rule, Segment } from '../../../domain/flipt/types';
import { entityDiff } from '../../../src/features/history/diff';

const variant = (id: string, key: string) => ({
  id,
  key,
  flagKey: 'f',
  name: '',
  description: '',
  attachment: '',
  namespaceKey: 'n',
  createdAt: '',
  updatedAt: '',
});
const flag = (changes: Partial<Flag> = {}): Flag => ({
  key: 'f',
  name: 'F',
  description: '',
  enabled: true,
  type: 'VARIANT_FLAG_TYPE',
  namespaceKey: 'n',
  createdAt: '',
  updatedAt: '',
  variants: [variant('v1', 'red'), variant('v2', 'blue')],
  ...changes,
});
const rule = (id: string, rank: number, split: Record<string, number>, segments = ['eu']): Rule => ({
  id,
  flagKey: 'f',
  namespaceKey: 'n',
  rank,
  segmentKey: segments.length === 1 ? segments[0] : '',
  segmentKeys: segments.length > 1 ? segments : [],
  segmentOperator: 'AND_SEGMENT_OPERATOR',
  distributions: Object.entries(split).map(([variantId, rollout], index) => ({
    id: `${id}-${index}`,
    ruleId: id,
    variantId,
    rollout,
    createdAt: '',
    updatedAt: '',
  })),
  createdAt: '',
  updatedAt: '',
});
const state = (changes: Partial<FlagState> = {}): FlagState => ({ flag: flag(), rules: [], rollouts: [], ...changes });

describe('entityDiff', () => {
  it("reads a flag's fields, rules and distributions by variant key and segment, not ids", () => {
    const before = state({ rules: [rule('r1', 1, { v1: 50, v2: 50 })] });
    const after = state({
      flag: flag({ enabled: false, defaultVariant: variant('v2', 'blue') }),
      rules: [rule('r1', 1, { v1: 20, v2: 80 }), rule('r2', 2, {}, ['eu', 'staff'])],
    });
    expect(entityDiff('flag', before, after)).toEqual([
      { label: 'Enabled', before: 'on', after: 'off' },
      { label: 'Default variant', before: '', after: 'blue' },
      { label: 'Rule on eu', before: '#1: red 50%, blue 50%', after: '#1: red 20%, blue 80%' },
      { label: 'Rule on eu AND staff', before: '', after: '#2: no variant' },
    ]);
  });

  it('lists what a creation set and a deletion removed; an unchanged entity has no lines', () => {
    expect(entityDiff('flag', null, state())).toEqual([
      { label: 'Name', before: '', after: 'F' },
      { label: 'Enabled', before: '', after: 'on' },
      { label: 'Variant red', before: '', after: 'red' },
      { label: 'Variant blue', before: '', after: 'blue' },
    ]);
    const segment: Segment = {
      key: 's',
      name: 'S',
      description: '',
      matchType: 'ALL_MATCH_TYPE',
      namespaceKey: 'n',
      createdAt: '',
      updatedAt: '',
      constraints: [
        {
          id: 'c1',
          segmentKey: 's',
          type: 'STRING_COMPARISON_TYPE',
          property: 'plan',
          operator: 'eq',
          value: 'pro',
          description: '',
          namespaceKey: 'n',
          createdAt: '',
          updatedAt: '',
        },
      ],
    };
    expect(entityDiff('segment', segment, null)).toEqual([
      { label: 'Name', before: 'S', after: '' },
      { label: 'Match type', before: 'all', after: '' },
      { label: 'Constraint on plan', before: 'plan == pro', after: '' },
    ]);
    expect(entityDiff('segment', segment, { ...segment, updatedAt: 'later' })).toEqual([]);
  });
});
