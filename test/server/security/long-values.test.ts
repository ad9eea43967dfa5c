import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from '../evaluation/api.js';

/**
 * Context values of about a megabyte, built to make a backtracking parser work quadratically, on
 * every constraint type. A quadratic parser takes minutes on these (so the test times out); a linear
 * one answers each at once, and correctly.
 */
const MB = 1_000_000;
const spaces = ' '.repeat(MB);

type Case = [
  name: string,
  constraint: [type: string, operator: string, value?: string],
  context: string,
  matches: boolean,
];
const CASES: Case[] = [
  ['prefix, trimmed', ['STRING_COMPARISON_TYPE', 'prefix', 'x'], ` x${spaces}x `, true],
  ['suffix, trimmed', ['STRING_COMPARISON_TYPE', 'suffix', 'x'], ` x${spaces}x `, true],
  ['empty', ['STRING_COMPARISON_TYPE', 'empty'], `${spaces}x`, false],
  ['notempty', ['STRING_COMPARISON_TYPE', 'notempty'], spaces, false],
  ['isoneof', ['STRING_COMPARISON_TYPE', 'isoneof', '["a"]'], 'a'.repeat(MB), false],
  ['digits then a letter', ['NUMBER_COMPARISON_TYPE', 'gt', '1'], `${'1'.repeat(MB)}x`, false],
  ['hexadecimal without exponent', ['NUMBER_COMPARISON_TYPE', 'lt', '1'], `0x${'a'.repeat(MB)}x`, false],
  ['a long fraction', ['NUMBER_COMPARISON_TYPE', 'eq', '0'], `0.${'0'.repeat(MB)}1`, true],
  ['underscores', ['NUMBER_COMPARISON_TYPE', 'neq', '1'], `${'1_'.repeat(MB / 2)}e`, false],
  ['a number list', ['NUMBER_COMPARISON_TYPE', 'isoneof', '[1]'], `.${'1'.repeat(MB)}ex`, false],
  ['number present', ['NUMBER_COMPARISON_TYPE', 'present'], `${spaces}x`, true],
  ['boolean', ['BOOLEAN_COMPARISON_TYPE', 'true'], 't'.repeat(MB), false],
  ['boolean notpresent', ['BOOLEAN_COMPARISON_TYPE', 'notpresent'], spaces, true],
  [
    'a long second fraction',
    ['DATETIME_COMPARISON_TYPE', 'gt', '2020-01-01'],
    `2021-01-01T00:00:00.${'1'.repeat(MB)}Z`,
    true,
  ],
  [
    'datetime, spoiled',
    ['DATETIME_COMPARISON_TYPE', 'gt', '2020-01-01'],
    `2021-01-01T00:00:00.${'1'.repeat(MB)}x`,
    false,
  ],
];

describe.each(dialects)('megabyte context values on every constraint type on %s', (dialect) => {
  let test: TestApp;
  let api: Api;
  const ns = 'long-values';

  beforeAll(async () => {
    test = await startTestApp(dialect);
    api = new Api(test.app);
    await api.ok('POST', '/api/v1/namespaces', { key: ns, name: ns });
    for (const [i, [, [type, operator, value]]] of CASES.entries()) {
      await api.segment(ns, `s${i}`, [[type, 'p', operator, value]]);
      await api.flag(ns, `f${i}`, 'BOOLEAN_FLAG_TYPE', false);
      await api.segmentRollout(ns, `f${i}`, 1, [`s${i}`], true);
    }
    await api.segment(ns, 'entity', [['ENTITY_ID_COMPARISON_TYPE', 'entityId', 'neq', 'x']]);
    await api.flag(ns, 'by-entity', 'BOOLEAN_FLAG_TYPE', false);
    await api.segmentRollout(ns, 'by-entity', 1, ['entity'], true);
  });
  afterAll(() => test.close());

  it.each(CASES.map((c, i) => [c[0], i] as const))('%s', async (_name, i) => {
    const [, , context, matches] = CASES[i];
    const answer = await api.ok('POST', '/evaluate/v1/boolean', {
      namespaceKey: ns,
      flagKey: `f${i}`,
      entityId: 'e',
      context: { p: context },
    });
    expect(answer.enabled).toBe(matches);
  });

  it('an entity id', async () => {
    const answer = await api.ok('POST', '/evaluate/v1/boolean', {
      namespaceKey: ns,
      flagKey: 'by-entity',
      entityId: `x${spaces}x`,
    });
    expect(answer.enabled).toBe(true);
  });
});
