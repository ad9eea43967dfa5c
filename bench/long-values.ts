// Hostile context values against every constraint type (issue: quadratic-time parsing). Each row is
// one evaluation of a constraint on a value built to make a backtracking parser work hard; a linear
// parser takes about a millisecond per megabyte.
import { compileConstraintTest } from '../domain/evaluation/constraints.js';
import type { SnapshotConstraint } from '../domain/evaluation/index.js';

const SIZES = (process.env.BENCH_SIZES ?? '150000,1000000').split(',').map(Number);

type Case = [type: SnapshotConstraint['type'], operator: string, constraint: string, value: (n: number) => string];
const CASES: Case[] = [
  ['STRING_CONSTRAINT_COMPARISON_TYPE', 'prefix', 'x', (n) => `x${' '.repeat(n)}x`],
  ['STRING_CONSTRAINT_COMPARISON_TYPE', 'suffix', 'x', (n) => `x${' '.repeat(n)}x`],
  ['STRING_CONSTRAINT_COMPARISON_TYPE', 'empty', '', (n) => `${' '.repeat(n)}x`],
  ['STRING_CONSTRAINT_COMPARISON_TYPE', 'isoneof', '["a"]', (n) => 'a'.repeat(n)],
  ['ENTITY_ID_CONSTRAINT_COMPARISON_TYPE', 'eq', 'a', (n) => 'a'.repeat(n)],
  ['NUMBER_CONSTRAINT_COMPARISON_TYPE', 'gt', '1', (n) => `${'1'.repeat(n)}x`],
  ['NUMBER_CONSTRAINT_COMPARISON_TYPE', 'lt', '1', (n) => `0x${'a'.repeat(n)}x`],
  ['NUMBER_CONSTRAINT_COMPARISON_TYPE', 'eq', '1', (n) => `${'1_'.repeat(n / 2)}e`],
  ['NUMBER_CONSTRAINT_COMPARISON_TYPE', 'isoneof', '[1]', (n) => `.${'1'.repeat(n)}ex`],
  ['NUMBER_CONSTRAINT_COMPARISON_TYPE', 'present', '', (n) => `${' '.repeat(n)}x`],
  ['BOOLEAN_CONSTRAINT_COMPARISON_TYPE', 'true', '', (n) => 't'.repeat(n)],
  ['DATETIME_CONSTRAINT_COMPARISON_TYPE', 'gt', '2020-01-01', (n) => `2020-01-01T00:00:00.${'1'.repeat(n)}x`],
  ['DATETIME_CONSTRAINT_COMPARISON_TYPE', 'notpresent', '', (n) => `${' '.repeat(n)}x`],
];

for (const size of SIZES) {
  console.log(`\nvalues of ${size.toLocaleString('en')} characters`);
  for (const [type, operator, constraint, value] of CASES) {
    const test = compileConstraintTest({ id: 'c', type, property: 'p', operator, value: constraint })!;
    const hostile = value(size);
    const started = performance.now();
    test(hostile);
    const ms = performance.now() - started;
    console.log(
      `  ${type.replace('_CONSTRAINT_COMPARISON_TYPE', '').padEnd(9)} ${operator.padEnd(10)} ${ms.toFixed(1).padStart(9)} ms`,
    );
  }
}
