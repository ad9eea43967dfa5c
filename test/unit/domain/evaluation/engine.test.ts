import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  compileSnapshot,
  crc32,
  evaluateBoolean,
  evaluateFlag,
  evaluateVariant,
  explainEvaluation,
  EvaluationError,
  thresholdBucket,
  variantBucket,
  type SnapshotDocument,
} from '../../../../domain/evaluation/index.js';
import {
  booleanFlag,
  constraint,
  document,
  rule,
  segment,
  segmentRollout,
  threshold,
  variantFlag,
} from './builders.js';

const everyone = segment('everyone', []);
const variant = (doc: SnapshotDocument, flagKey: string, entityId: string, context: Record<string, string> = {}) =>
  evaluateVariant(compileSnapshot(doc), { flagKey, entityId, context });
const boolean = (doc: SnapshotDocument, flagKey: string, entityId: string, context: Record<string, string> = {}) =>
  evaluateBoolean(compileSnapshot(doc), { flagKey, entityId, context });

describe('CRC-32', () => {
  it('equals zlib over UTF-8, including astral characters and lone surrogates', () => {
    for (const text of ['', 'foo1', 'héllo wörld', '日本語', '😀x', 'a\ud800b', '\udc00']) {
      expect(crc32(text)).toBe(zlibCrc32(Buffer.from(text, 'utf8')));
    }
  });
});

describe('variant bucketing (known answers of the Flipt bucketing)', () => {
  const split = (key: string, a: string, b: string) =>
    document([
      variantFlag(key, [
        rule(
          [everyone],
          [
            [a, 50],
            [b, 50],
          ],
        ),
      ]),
    ]);

  it('hashes flag key then entity id, mod 1000', () => {
    const ns = compileSnapshot(split('foo', 'boz', 'booz'));
    expect(variantBucket(ns.flags.get('foo')!, '1')).toBe(244);
    expect(variantBucket(ns.flags.get('foo')!, '2')).toBe(934);
    expect(variant(split('foo', 'boz', 'booz'), 'foo', '1').variantKey).toBe('boz');
    expect(variant(split('foo', 'boz', 'booz'), 'foo', '2').variantKey).toBe('booz');
  });

  it('flag_001 / some-fixed-entity-id → bucket 553 → the second variant', () => {
    const result = variant(split('flag_001', 'variant_001', 'variant_002'), 'flag_001', 'some-fixed-entity-id');
    expect(result).toMatchObject({
      match: true,
      reason: 'MATCH_EVALUATION_REASON',
      variantKey: 'variant_002',
      segmentKeys: ['everyone'],
    });
  });

  it('a bucket past the distributions is no match, with the default variant and the segment keys', () => {
    const doc = document([
      variantFlag('foo', [rule([everyone], [['bar', 10]]), rule([everyone], [['baz', 100]])], {
        defaultVariant: { id: 'd', key: 'default-variant', attachment: '{"x":1}' },
      }),
    ]);
    expect(variant(doc, 'foo', '123')).toEqual({
      flagKey: 'foo',
      match: false,
      reason: 'DEFAULT_EVALUATION_REASON',
      variantKey: 'default-variant',
      variantAttachment: '{"x":1}',
      segmentKeys: ['everyone'],
    });
  });

  it('float32 boundaries: three × 33.33 leave bucket 999 unmatched', () => {
    const doc = document([
      variantFlag('f', [
        rule(
          [everyone],
          [
            ['a', 33.33],
            ['b', 33.33],
            ['c', 33.33],
          ],
        ),
      ]),
    ]);
    const ns = compileSnapshot(doc);
    expect(ns.flags.get('f')!.rules[0].boundaries).toEqual([333, 666, 999]);
    let entity = 0;
    while (variantBucket(ns.flags.get('f')!, String(entity)) !== 999) entity++;
    expect(evaluateVariant(ns, { flagKey: 'f', entityId: String(entity), context: {} })).toMatchObject({
      match: false,
      reason: 'UNKNOWN_EVALUATION_REASON',
      variantKey: '',
    });
  });

  it('totals over 100 make later distributions unreachable; zero rollouts are dropped', () => {
    const ns = compileSnapshot(
      document([
        variantFlag('f', [
          rule(
            [everyone],
            [
              ['z', 0],
              ['a', 80],
              ['b', 80],
              ['c', 0.05],
            ],
          ),
        ]),
      ]),
    );
    expect(ns.flags.get('f')!.rules[0].boundaries).toEqual([800, 1600, 1600]);
    expect(ns.flags.get('f')!.rules[0].variants.map((v) => v.key)).toEqual(['a', 'b', 'c']);
  });

  it('zero-rollout distributions never win, whatever their position', () => {
    const doc = document([
      variantFlag('f', [
        rule(
          [everyone],
          [
            ['zero', 0],
            ['one', 100],
            ['two', 0],
          ],
        ),
      ]),
    ]);
    const ns = compileSnapshot(doc);
    for (let i = 0; i < 200; i++)
      expect(evaluateVariant(ns, { flagKey: 'f', entityId: `e${i}`, context: {} }).variantKey).toBe('one');
  });

  it('distributes 10,000 entities close to the rollouts', () => {
    const ns = compileSnapshot(
      document([
        variantFlag('f', [
          rule(
            [everyone],
            [
              ['a', 20],
              ['b', 30],
              ['c', 50],
            ],
          ),
        ]),
      ]),
    );
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 10_000; i++)
      counts[evaluateVariant(ns, { flagKey: 'f', entityId: `user-${i}`, context: {} }).variantKey]++;
    expect(counts.a).toBeGreaterThan(1800);
    expect(counts.a).toBeLessThan(2200);
    expect(counts.c).toBeGreaterThan(4700);
  });
});

describe('variant evaluation', () => {
  const premium = segment('premium', [constraint('STRING', 'plan', 'eq', 'premium')]);
  const admin = segment('admin', [constraint('BOOLEAN', 'admin', 'true')]);

  it('no rules: UNKNOWN, or DEFAULT with the default variant', () => {
    expect(variant(document([variantFlag('f', [])]), 'f', 'e')).toMatchObject({
      match: false,
      reason: 'UNKNOWN_EVALUATION_REASON',
      variantKey: '',
    });
    const withDefault = document([variantFlag('f', [], { defaultVariant: { id: '1', key: 'dv', attachment: '' } })]);
    expect(variant(withDefault, 'f', 'e')).toMatchObject({
      match: false,
      reason: 'DEFAULT_EVALUATION_REASON',
      variantKey: 'dv',
    });
  });

  it('a disabled flag keeps the default variant', () => {
    const doc = document([
      variantFlag('f', [rule([everyone], [['a', 100]])], {
        enabled: false,
        defaultVariant: { id: '1', key: 'dv', attachment: '' },
      }),
    ]);
    expect(variant(doc, 'f', 'e')).toMatchObject({
      match: false,
      reason: 'FLAG_DISABLED_EVALUATION_REASON',
      variantKey: 'dv',
      segmentKeys: [],
    });
  });

  it('first matching rule wins; a rule without distributions matches with the default variant', () => {
    const doc = document([
      variantFlag('f', [rule([premium], []), rule([everyone], [['b', 100]])], {
        defaultVariant: { id: '1', key: 'dv', attachment: 'x' },
      }),
    ]);
    expect(variant(doc, 'f', 'e', { plan: 'premium' })).toMatchObject({
      match: true,
      reason: 'MATCH_EVALUATION_REASON',
      variantKey: 'dv',
      variantAttachment: 'x',
      segmentKeys: ['premium'],
    });
    expect(variant(doc, 'f', 'e', { plan: 'free' })).toMatchObject({
      match: true,
      variantKey: 'b',
      segmentKeys: ['everyone'],
    });
  });

  it('OR needs one segment, AND needs all; segmentKeys lists the matched ones', () => {
    const or = document([variantFlag('f', [rule([premium, admin], [['a', 100]], 'OR')])]);
    const and = document([variantFlag('f', [rule([premium, admin], [['a', 100]], 'AND')])]);
    expect(variant(or, 'f', 'e', { plan: 'premium' })).toMatchObject({ match: true, segmentKeys: ['premium'] });
    expect(variant(or, 'f', 'e', { plan: 'premium', admin: 'true' }).segmentKeys).toEqual(['premium', 'admin']);
    expect(variant(or, 'f', 'e', {}).match).toBe(false);
    expect(variant(and, 'f', 'e', { plan: 'premium' }).match).toBe(false);
    expect(variant(and, 'f', 'e', { plan: 'premium', admin: 't' })).toMatchObject({
      match: true,
      segmentKeys: ['premium', 'admin'],
    });
  });

  it('ALL and ANY match types, and segments without constraints', () => {
    const all = segment('all', [constraint('STRING', 'a', 'eq', '1'), constraint('STRING', 'b', 'eq', '2')], 'ALL');
    const any = segment('any', [constraint('STRING', 'a', 'eq', '1'), constraint('STRING', 'b', 'eq', '2')], 'ANY');
    const emptyAny = segment('empty-any', [], 'ANY');
    const doc = document([
      variantFlag('all', [rule([all], [['v', 100]])]),
      variantFlag('any', [rule([any], [['v', 100]])]),
      variantFlag('empty', [rule([emptyAny], [['v', 100]])]),
    ]);
    expect(variant(doc, 'all', 'e', { a: '1' }).match).toBe(false);
    expect(variant(doc, 'all', 'e', { a: '1', b: '2' }).match).toBe(true);
    expect(variant(doc, 'any', 'e', { b: '2' }).match).toBe(true);
    expect(variant(doc, 'any', 'e', {}).match).toBe(false);
    expect(variant(doc, 'empty', 'e', {}).match).toBe(true);
  });

  it('ENTITY_ID constraints test the entity id; inherited object properties are not context', () => {
    const doc = document([
      variantFlag('f', [
        rule([segment('vip', [constraint('ENTITY_ID', 'entityId', 'isoneof', '["alice"]')])], [['v', 100]]),
      ]),
      variantFlag('g', [rule([segment('ctor', [constraint('STRING', 'constructor', 'notempty')])], [['v', 100]])]),
    ]);
    expect(variant(doc, 'f', 'alice').match).toBe(true);
    expect(variant(doc, 'f', 'bob', { entityId: 'alice' }).match).toBe(false);
    expect(variant(doc, 'g', 'e').match).toBe(false);
  });

  it('errors: not found, wrong type, unknown constraint type', () => {
    const doc = document([
      booleanFlag('b', []),
      variantFlag('u', [
        rule(
          [segment('bad', [constraint('STRING', 'a', 'eq', 'x'), constraint('UNKNOWN', 'a', 'eq', 'x')])],
          [['v', 100]],
        ),
      ]),
    ]);
    expect(() => variant(doc, 'missing', 'e')).toThrow(
      new EvaluationError('flag_not_found', 'flag "default/missing" not found'),
    );
    expect(() => variant(doc, 'b', 'e')).toThrow('flag type BOOLEAN_FLAG_TYPE invalid');
    expect(() => variant(doc, 'u', 'e', { a: 'nope' })).toThrow('unknown constraint type');
    expect(() => boolean(doc, 'u', 'e')).toThrow('flag type VARIANT_FLAG_TYPE invalid');
  });

  it('undoes the rule repetition of a snapshot served by Flipt itself', () => {
    const two = [everyone, segment('other', [])];
    const repeated = rule(two, [
      ['a', 50],
      ['b', 50],
      ['a', 50],
      ['b', 50],
    ]);
    const doc = document([variantFlag('f', [repeated, { ...repeated }])]);
    const ns = compileSnapshot(doc);
    expect(ns.flags.get('f')!.rules).toHaveLength(1);
    expect(ns.flags.get('f')!.rules[0].boundaries).toEqual([500, 1000]);
  });
});

describe('boolean evaluation (known answers of the Flipt bucketing)', () => {
  it('hashes entity id then flag key, mod 100', () => {
    expect(thresholdBucket('flag_boolean', 'fixed')).toBe(9);
    expect(thresholdBucket('flag_boolean', 'hello')).toBe(96);
    expect(thresholdBucket('test-flag', 'test-entity')).toBe(65);
  });

  it('threshold matches below the percentage, else falls through to the flag default', () => {
    const doc = document([booleanFlag('flag_boolean', [threshold(50, true)], false)]);
    expect(boolean(doc, 'flag_boolean', 'fixed')).toEqual({
      flagKey: 'flag_boolean',
      enabled: true,
      reason: 'MATCH_EVALUATION_REASON',
      segmentKeys: [],
    });
    expect(boolean(doc, 'flag_boolean', 'hello')).toEqual({
      flagKey: 'flag_boolean',
      enabled: false,
      reason: 'DEFAULT_EVALUATION_REASON',
      segmentKeys: [],
    });
    const seventy = document([booleanFlag('test-flag', [threshold(70, false)], true)]);
    expect(boolean(seventy, 'test-flag', 'test-entity')).toMatchObject({
      enabled: false,
      reason: 'MATCH_EVALUATION_REASON',
    });
    const five = document([booleanFlag('test-flag', [threshold(5, false)], true)]);
    expect(boolean(five, 'test-flag', 'test-entity')).toMatchObject({
      enabled: true,
      reason: 'DEFAULT_EVALUATION_REASON',
    });
  });

  it('segment rollouts in rank order; a disabled flag still evaluates its rollouts', () => {
    const beta = segment('beta', [constraint('STRING', 'group', 'eq', 'beta')]);
    const eu = segment('eu', [constraint('STRING', 'region', 'eq', 'eu')]);
    const doc = document([
      booleanFlag('f', [segmentRollout([beta, eu], true, 'AND'), segmentRollout([eu], false)], false),
    ]);
    expect(boolean(doc, 'f', 'e', { group: 'beta', region: 'eu' })).toEqual({
      flagKey: 'f',
      enabled: true,
      reason: 'MATCH_EVALUATION_REASON',
      segmentKeys: ['beta', 'eu'],
    });
    expect(boolean(doc, 'f', 'e', { region: 'eu' })).toEqual({
      flagKey: 'f',
      enabled: false,
      reason: 'MATCH_EVALUATION_REASON',
      segmentKeys: ['eu'],
    });
    expect(boolean(doc, 'f', 'e', {})).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
  });
});

describe('evaluateFlag and explainEvaluation', () => {
  const premium = segment(
    'premium',
    [constraint('STRING', 'plan', 'eq', 'premium'), constraint('NUMBER', 'seats', 'gte', '10')],
    'ANY',
  );
  const doc = document([
    variantFlag('v', [
      rule([segment('nobody', [constraint('STRING', 'plan', 'eq', 'none')])], [['x', 100]]),
      rule(
        [premium],
        [
          ['a', 50],
          ['b', 50],
        ],
      ),
    ]),
    booleanFlag('b', [threshold(0, true), segmentRollout([premium], true)]),
  ]);
  const ns = compileSnapshot(doc);

  it('dispatches on the flag type', () => {
    expect(evaluateFlag(ns, { flagKey: 'b', entityId: 'e', context: { seats: '12' } })).toEqual({
      type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE',
      boolean: { flagKey: 'b', enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['premium'] },
    });
    expect(evaluateFlag(ns, { flagKey: 'v', entityId: '1', context: {} }).type).toBe(
      'VARIANT_EVALUATION_RESPONSE_TYPE',
    );
  });

  it('explains a variant evaluation rule by rule, down to each constraint', () => {
    const request = { flagKey: 'v', entityId: 'user-7', context: { plan: 'free', seats: '12' } };
    const explanation = explainEvaluation(ns, request);
    expect(explanation.result).toEqual({
      type: 'VARIANT_EVALUATION_RESPONSE_TYPE',
      variant: evaluateVariant(ns, request),
    });
    expect(explanation.steps).toHaveLength(2);
    const [first, second] = explanation.steps;
    expect(first).toMatchObject({
      kind: 'rule',
      rank: 1,
      matched: false,
      segments: [{ key: 'nobody', matched: false }],
    });
    expect(second).toMatchObject({
      kind: 'rule',
      rank: 2,
      matched: true,
      boundaries: [500, 1000],
      bucket: variantBucket(ns.flags.get('v')!, 'user-7'),
      segments: [
        {
          key: 'premium',
          matchType: 'ANY_SEGMENT_MATCH_TYPE',
          matched: true,
          constraints: [
            { property: 'plan', operator: 'eq', value: 'premium', contextValue: 'free', matched: false },
            { property: 'seats', operator: 'gte', value: '10', contextValue: '12', matched: true },
          ],
        },
      ],
    });
  });

  it('explains a boolean evaluation rollout by rollout', () => {
    const explanation = explainEvaluation(ns, { flagKey: 'b', entityId: 'e', context: {} });
    expect(explanation.steps).toEqual([
      { kind: 'threshold', rank: 1, percentage: 0, value: true, bucket: thresholdBucket('b', 'e'), matched: false },
      expect.objectContaining({ kind: 'segment', rank: 2, matched: false, value: true }),
    ]);
    expect(explanation.result).toMatchObject({ boolean: { enabled: false, reason: 'DEFAULT_EVALUATION_REASON' } });
  });
});
