import { describe, expect, it } from 'vitest';
import {
  distributionsError,
  DISTRIBUTIONS_TOTAL_MESSAGE,
  evenSplit,
  totalPercentage,
} from '../../../src/features/flags/rules/distributions';
import { move } from '../../../src/components/SortableList';
import { segmentFields, segmentsOf } from '../../../src/lib/segments';
import { rolloutBody } from '../../../src/features/flags/rollouts/api';
import { PERCENTAGE_MESSAGE, rolloutError, rolloutValues } from '../../../src/features/flags/rollouts/RolloutForm';

describe('distributions', () => {
  it('splits 100% evenly to the hundredth, the remainder going to the first variants', () => {
    expect(evenSplit(0)).toEqual([]);
    expect(evenSplit(1)).toEqual([100]);
    expect(evenSplit(2)).toEqual([50, 50]);
    expect(evenSplit(3)).toEqual([33.34, 33.33, 33.33]);
    expect(evenSplit(7)).toEqual([14.29, 14.29, 14.29, 14.29, 14.28, 14.28, 14.28]);
    for (let count = 1; count <= 40; count++) expect(totalPercentage(evenSplit(count))).toBe(100);
  });

  it('must total exactly 100%, each share within 0-100', () => {
    expect(distributionsError([33.34, 33.33, 33.33])).toBeUndefined();
    expect(distributionsError([33.33, 33.33, 33.33])).toBe(DISTRIBUTIONS_TOTAL_MESSAGE);
    expect(distributionsError([60, 50])).toBe(DISTRIBUTIONS_TOTAL_MESSAGE);
    expect(distributionsError([120, -20])).toBe('Each percentage must be between 0 and 100');
    expect(distributionsError([Number.NaN, 100])).toBe('Each percentage must be between 0 and 100');
  });
});

describe('ordering', () => {
  it('moves an item to a new position without touching the input', () => {
    const items = ['a', 'b', 'c', 'd'];
    expect(move(items, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(move(items, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(items).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('segment fields of rules and rollouts', () => {
  it('sends one segment as segmentKey with OR, several as segmentKeys with the operator', () => {
    expect(segmentFields(['a'], 'AND_SEGMENT_OPERATOR')).toEqual({
      segmentKey: 'a',
      segmentOperator: 'OR_SEGMENT_OPERATOR',
    });
    expect(segmentFields(['a', 'b'], 'AND_SEGMENT_OPERATOR')).toEqual({
      segmentKeys: ['a', 'b'],
      segmentOperator: 'AND_SEGMENT_OPERATOR',
    });
  });

  it('reads whichever of segmentKey and segmentKeys the server filled', () => {
    expect(segmentsOf({ segmentKey: 'a', segmentKeys: [] })).toEqual(['a']);
    expect(segmentsOf({ segmentKey: '', segmentKeys: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(segmentsOf({ segmentKey: '', segmentKeys: [] })).toEqual([]);
  });
});

describe('rollouts', () => {
  it('builds threshold and segment bodies', () => {
    expect(rolloutBody({ kind: 'threshold', description: 'd', percentage: 25, value: false })).toEqual({
      description: 'd',
      threshold: { percentage: 25, value: false },
    });
    expect(
      rolloutBody({
        kind: 'segment',
        description: '',
        segmentKeys: ['a', 'b'],
        segmentOperator: 'AND_SEGMENT_OPERATOR',
        value: true,
      }),
    ).toEqual({
      description: '',
      segment: { segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: true },
    });
  });

  it('reads a stored rollout back into form values', () => {
    const base = {
      id: '1',
      namespaceKey: 'default',
      flagKey: 'f',
      rank: 1,
      description: 'x',
      createdAt: '',
      updatedAt: '',
    };
    expect(
      rolloutValues({ ...base, type: 'THRESHOLD_ROLLOUT_TYPE', threshold: { percentage: 10, value: true } }),
    ).toEqual({
      kind: 'threshold',
      description: 'x',
      percentage: 10,
      value: true,
    });
    expect(
      rolloutValues({
        ...base,
        type: 'SEGMENT_ROLLOUT_TYPE',
        segment: { segmentKey: 's', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: false },
      }),
    ).toEqual({
      kind: 'segment',
      description: 'x',
      segmentKeys: ['s'],
      segmentOperator: 'OR_SEGMENT_OPERATOR',
      value: false,
    });
  });

  it('validates the percentage and the segments', () => {
    expect(rolloutError({ kind: 'threshold', description: '', percentage: 100, value: true })).toBeUndefined();
    expect(rolloutError({ kind: 'threshold', description: '', percentage: 100.5, value: true })).toBe(
      PERCENTAGE_MESSAGE,
    );
    expect(rolloutError({ kind: 'threshold', description: '', percentage: Number.NaN, value: true })).toBe(
      PERCENTAGE_MESSAGE,
    );
    expect(
      rolloutError({
        kind: 'segment',
        description: '',
        segmentKeys: [],
        segmentOperator: 'OR_SEGMENT_OPERATOR',
        value: true,
      }),
    ).toBe('Choose at least one segment');
  });
});
