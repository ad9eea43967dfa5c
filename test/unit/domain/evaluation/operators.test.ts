import { describe, expect, it } from 'vitest';
import { compileConstraintTest } from '../../../../domain/evaluation/constraints.js';
import { parseGoBool, parseGoDateTime, parseGoFloat, goTrimSpace } from '../../../../domain/evaluation/index.js';
import { constraint } from './builders.js';

type Row = [operator: string, constraintValue: string, contextValue: string, expected: boolean];

function check(type: string, rows: Row[]) {
  it.each(rows)(`${type} %s %j against %j → %s`, (operator, value, context, expected) => {
    const test = compileConstraintTest(constraint(type, 'p', operator, value))!;
    expect(test(context)).toBe(expected);
  });
}

describe('STRING operators', () => {
  check('STRING', [
    ['eq', 'bar', 'bar', true],
    ['eq', 'bar', 'baz', false],
    ['eq', 'bar', ' bar', false],
    ['eq', '', '', false],
    ['neq', 'bar', 'baz', true],
    ['neq', 'bar', 'bar', false],
    ['neq', 'bar', '', false],
    ['empty', '', '', true],
    ['empty', '', ' \t\n\u0085\u3000', true],
    ['empty', '', '\ufeff', false],
    ['empty', '', 'x', false],
    ['notempty', '', 'x', true],
    ['notempty', '', '  ', false],
    ['notempty', '', '', false],
    ['prefix', 'ba', 'bar', true],
    ['prefix', 'ba', '  bar', true],
    ['prefix', 'ba', 'foo', false],
    ['prefix', 'ba', '', false],
    ['suffix', 'ar', 'bar', true],
    ['suffix', 'ar', 'bar\n', true],
    ['suffix', 'ar', 'bat', false],
    ['contains', 'oo', 'foot', true],
    ['contains', 'oo', 'fat', false],
    ['notcontains', 'oo', 'fat', true],
    ['notcontains', 'oo', '', false],
    ['isoneof', '["a","b"]', 'b', true],
    ['isoneof', '["a","b"]', 'c', false],
    ['isoneof', '["a","b"]', '', false],
    ['isoneof', '["a",1]', 'a', false],
    ['isoneof', 'not json', 'a', false],
    ['isoneof', '{"a":1}', 'a', false],
    ['isoneof', 'null', 'a', false],
    ['isnotoneof', '["a","b"]', 'c', true],
    ['isnotoneof', '["a","b"]', 'a', false],
    ['isnotoneof', '["a","b"]', '', false],
    ['isnotoneof', 'not json', 'c', false],
    ['isnotoneof', 'null', 'c', true],
    ['isnotoneof', '["a",null]', 'c', true],
    ['unknown', 'bar', 'bar', false],
  ]);
});

describe('ENTITY_ID operators (string semantics)', () => {
  check('ENTITY_ID', [
    ['eq', 'user-1', 'user-1', true],
    ['neq', 'user-1', 'user-2', true],
    ['isoneof', '["u1","u2"]', 'u2', true],
    ['isnotoneof', '["u1","u2"]', 'u2', false],
  ]);
});

describe('NUMBER operators', () => {
  check('NUMBER', [
    ['eq', '10', '10', true],
    ['eq', '10', '10.0', true],
    ['eq', '10', '1e1', true],
    ['eq', '10', '+10', true],
    ['eq', '10', '0xap0', true],
    ['eq', '1000', '1_000', true],
    ['eq', '10', ' 10', false],
    ['eq', '10', '10 ', false],
    ['eq', '10', 'ten', false],
    ['eq', '10', '', false],
    ['eq', 'ten', '10', false],
    ['neq', '10', '11', true],
    ['neq', '10', '10', false],
    ['neq', 'ten', '11', false],
    ['neq', '10', 'eleven', false],
    ['neq', '10', 'NaN', true],
    ['eq', 'NaN', 'NaN', false],
    ['lt', '10', '9', true],
    ['lt', '10', '10', false],
    ['lte', '10', '10', true],
    ['lte', '10', '11', false],
    ['gt', '10', '11', true],
    ['gt', '10', '10', false],
    ['gte', '10', '10', true],
    ['gte', '10', '9.99', false],
    ['gt', '10', 'Inf', true],
    ['lt', '10', '-infinity', true],
    ['gt', '10', '1e400', false],
    ['present', '', '1', true],
    ['present', '', 'x', true],
    ['present', '', ' ', false],
    ['notpresent', '', '', true],
    ['notpresent', '', '1', false],
    ['isoneof', '[1, 2.5, 3]', '2.5', true],
    ['isoneof', '[1, 2.5, 3]', '2', false],
    ['isoneof', '[1, 2.5, 3]', 'x', false],
    ['isoneof', '["1"]', '1', false],
    ['isoneof', '[null]', '0', true],
    ['isoneof', '[1e400]', '1', false],
    ['isnotoneof', '[1, 2]', '3', true],
    ['isnotoneof', '[1, 2]', '2', false],
    ['isnotoneof', '[1, 2]', 'x', false],
    ['isnotoneof', '[1, 2]', '', false],
    ['isnotoneof', 'nope', '3', false],
    ['unknown', '1', '1', false],
  ]);
});

describe('BOOLEAN operators', () => {
  check('BOOLEAN', [
    ['true', '', 'true', true],
    ['true', '', 'True', true],
    ['true', '', 'TRUE', true],
    ['true', '', 't', true],
    ['true', '', '1', true],
    ['true', '', 'false', false],
    ['true', '', 'yes', false],
    ['true', '', 'tRUE', false],
    ['true', '', '', false],
    ['false', '', 'false', true],
    ['false', '', 'F', true],
    ['false', '', '0', true],
    ['false', '', 'true', false],
    ['false', '', 'no', false],
    ['present', '', 'x', true],
    ['present', '', '', false],
    ['notpresent', '', '', true],
    ['notpresent', '', 'true', false],
    ['eq', 'true', 'true', false],
  ]);
});

describe('DATETIME operators', () => {
  check('DATETIME', [
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', true],
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01', true],
    ['eq', '2024-01-01', '2024-01-01T02:00:00+02:00', true],
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000000001Z', false],
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00,0Z', true],
    ['neq', '2024-01-01T00:00:00Z', '2024-01-02', true],
    ['neq', '2024-01-01T00:00:00Z', 'garbage', false],
    ['lt', '2024-01-01T00:00:00Z', '2023-12-31T23:59:59Z', true],
    ['lt', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', false],
    ['lte', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', true],
    ['gt', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.5Z', true],
    ['gt', '2024-01-01T00:00:00Z', '2023-06-01', false],
    ['gte', '2024-01-01T00:00:00Z', '2024-01-01', true],
    ['gt', '2024-01-01T00:00:00Z', '2024-01-01t00:00:01Z', false],
    ['gt', '2024-01-01T00:00:00Z', '2024-01-01T00:00:01z', false],
    ['gt', '2024-01-01T00:00:00Z', '2024-02-30', false],
    ['gt', '2024-01-01T00:00:00Z', '2024-1-02', false],
    ['gt', '2024-01-01T00:00:00Z', ' 2024-01-02', false],
    ['gt', 'not a date', '2024-01-02', false],
    ['lt', '2024-01-01', '', false],
    ['present', '', '2024-01-01', true],
    ['present', '', '', false],
    ['notpresent', '', '', true],
    ['isoneof', '["2024-01-01"]', '2024-01-01', false],
  ]);
});

describe('unknown comparison type', () => {
  it('has no test (evaluating its segment is an error)', () => {
    expect(compileConstraintTest(constraint('UNKNOWN', 'p', 'eq', 'x'))).toBeUndefined();
  });
});

describe('Go parsing rules', () => {
  it.each([
    ['1', 1],
    ['-2e3', -2000],
    ['+3', 3],
    ['1.', 1],
    ['.5', 0.5],
    ['1_000.5', 1000.5],
    ['0x1p-2', 0.25],
    ['0X1.8P1', 3],
    ['0x_1p0', 1],
    ['Inf', Infinity],
    ['-infinity', -Infinity],
    ['+INF', Infinity],
    ['1e-400', 0],
    ['0x1p-1074', 5e-324],
  ])('ParseFloat(%j) = %d', (text, expected) => {
    expect(parseGoFloat(text)).toBe(expected);
  });

  it('ParseFloat accepts NaN', () => {
    expect(parseGoFloat('nan')).toBeNaN();
  });

  it.each([
    '',
    ' 1',
    '1 ',
    '+nan',
    'infinit',
    '1e',
    '1e+',
    '_1',
    '1_',
    '1__0',
    '1_.5',
    '0x1',
    '0x',
    '0xp1',
    '1e400',
    '0x1p1024',
    '1,5',
    '0b101',
    '--1',
  ])('ParseFloat(%j) fails', (text) => {
    expect(parseGoFloat(text)).toBeUndefined();
  });

  it('ParseBool', () => {
    expect(['1', 't', 'T', 'TRUE', 'true', 'True'].map(parseGoBool)).toEqual(Array(6).fill(true));
    expect(['0', 'f', 'F', 'FALSE', 'false', 'False'].map(parseGoBool)).toEqual(Array(6).fill(false));
    expect(['yes', 'tRue', ' true', ''].map(parseGoBool)).toEqual(Array(4).fill(undefined));
  });

  it('time.Parse(RFC3339) and DateOnly', () => {
    expect(parseGoDateTime('1970-01-01T00:00:00Z')).toEqual({ seconds: 0, nanos: 0 });
    expect(parseGoDateTime('1970-01-01T01:00:00+01:00')).toEqual({ seconds: 0, nanos: 0 });
    expect(parseGoDateTime('1970-01-01T0:00:01.1234567899Z')).toEqual({ seconds: 1, nanos: 123456789 });
    expect(parseGoDateTime('2000-02-29')).toEqual({ seconds: 951782400, nanos: 0 });
    expect(parseGoDateTime('0001-01-01T00:00:00Z')?.seconds).toBe(-62135596800);
    expect(parseGoDateTime('1970-01-01T00:00:00+24:00')).toEqual({ seconds: -86400, nanos: 0 });
    for (const bad of [
      '1900-02-29',
      '2024-13-01',
      '2024-01-01T24:00:00Z',
      '2024-01-01T00:60:00Z',
      '2024-01-01T00:00:60Z',
      '2024-01-01T00:00:00',
      '2024-01-01T00:00:00+0100',
      '2024-01-01T00:00:00+25:00',
      '2024-01-01 00:00:00Z',
      '24-01-01',
    ]) {
      expect(parseGoDateTime(bad), bad).toBeUndefined();
    }
  });

  it('TrimSpace trims what Go trims', () => {
    expect(goTrimSpace('\u0085 a \u3000')).toBe('a');
    expect(goTrimSpace('\ufeffa')).toBe('\ufeffa');
  });
});
