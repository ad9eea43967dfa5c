import { describe, expect, it } from 'vitest';
import { shortCommit, stringAsKey, truncate } from '../../../src/lib/format';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { fromDatetimeValue, toDatetimeValue } from '../../../src/lib/time';
import { formatTimestamp } from '../../../src/lib/timestamp';
import { namespacedSection } from '../../../src/lib/paths';
import { operatorLabel, OPERATORS, typeLabel } from '../../../src/features/segments/operators';
import { flagTypeLabel } from '../../../src/features/flags/labels';
import { addEntry } from '../../../src/components/MultiValueInput';

describe('format helpers', () => {
  it('truncates to 25 characters with "..."', () => {
    expect(truncate('a'.repeat(25))).toBe('a'.repeat(25));
    expect(truncate('a'.repeat(26))).toBe(`${'a'.repeat(25)}...`);
    expect(truncate('abcdef', 3)).toBe('abc...');
  });

  it('shortens a commit to 7 characters and turns whitespace into hyphens', () => {
    expect(shortCommit('2dcae7f42f2e1b8c5199e2bee1c3568d200516dd')).toBe('2dcae7f');
    expect(stringAsKey('My new  flag')).toBe('My-new--flag');
  });
});

describe('timestamps', () => {
  it("formats yyyy-MM-dd HH:mm:ss with ' UTC' when UTC is chosen", () => {
    expect(formatTimestamp('2024-07-01T10:00:00.123456Z', 'utc')).toBe('2024-07-01 10:00:00 UTC');
    expect(formatTimestamp('2024-07-01T10:00:00Z', 'local')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('reads and formats every timestamp as dayjs did', () => {
    dayjs.extend(utc);
    const values = [
      '2024-07-01T10:00:00.123456Z',
      '2024-12-31T23:59:59z',
      '2024-07-01T10:00:00+02:00',
      '2024-07-01T10:00:00.5',
      '2024-07-01 10:00',
      '2024-07-01',
      '2024/7/1',
      '0050-01-01T00:00:00Z',
      'not a date',
      '',
    ];
    for (const value of values) {
      const time = dayjs(value);
      expect(formatTimestamp(value, 'utc'), value).toBe(`${time.utc().format('YYYY-MM-DD HH:mm:ss')} UTC`);
      expect(formatTimestamp(value, 'local'), value).toBe(time.local().format('YYYY-MM-DD HH:mm:ss'));
    }
  });

  it('builds a datetime value from a date and an optional time', () => {
    expect(toDatetimeValue('2024-03-01', '', 'utc')).toBe('2024-03-01T00:00:00Z');
    expect(toDatetimeValue('2024-03-01', '13:45', 'utc')).toBe('2024-03-01T13:45:00Z');
    expect(toDatetimeValue('2024-03-01', '13:45', 'local')).toBe(
      new Date('2024-03-01T13:45').toISOString().replace('.000', ''),
    );
    expect(fromDatetimeValue('2024-03-01T13:45:00Z', 'utc')).toEqual({ date: '2024-03-01', time: '13:45' });
    expect(fromDatetimeValue('', 'utc')).toEqual({ date: '', time: '' });
  });
});

describe('routes and operators', () => {
  it('knows the namespaced sections, with and without the prefix', () => {
    expect(namespacedSection('/namespaces/prod/flags/a/rules')).toBe('flags');
    expect(namespacedSection('/segments')).toBe('segments');
    expect(namespacedSection('/console')).toBe('console');
    expect(namespacedSection('/settings/namespaces')).toBeUndefined();
  });

  it('labels datetime gt and lt as is after and is before', () => {
    expect(operatorLabel('DATETIME_COMPARISON_TYPE', 'gt')).toBe('is after');
    expect(operatorLabel('DATETIME_COMPARISON_TYPE', 'lt')).toBe('is before');
    expect(operatorLabel('NUMBER_COMPARISON_TYPE', 'gt')).toBe('>');
    expect(OPERATORS.DATETIME_COMPARISON_TYPE).not.toContain('isoneof');
  });
});

describe('labels', () => {
  it('labels flag types Variant or Boolean, otherwise Unknown', () => {
    expect(flagTypeLabel('VARIANT_FLAG_TYPE')).toBe('Variant');
    expect(flagTypeLabel('BOOLEAN_FLAG_TYPE')).toBe('Boolean');
    expect(flagTypeLabel('OTHER')).toBe('Unknown');
    expect(typeLabel('ENTITY_ID_COMPARISON_TYPE')).toBe('Entity');
    expect(typeLabel('UNKNOWN_COMPARISON_TYPE')).toBe('Unknown');
  });
});

describe('multi-value input', () => {
  it('adds trimmed entries, ignores empty and duplicate ones', () => {
    expect(addEntry([], ' a ', false)).toEqual(['a']);
    const items = ['a'];
    expect(addEntry(items, '   ', false)).toBe(items);
    expect(addEntry(items, 'a', false)).toBe(items);
  });

  it('converts to numbers for NUMBER and ignores what is not a number', () => {
    expect(addEntry([1], '2.5', true)).toEqual([1, 2.5]);
    expect(addEntry([1], '1', true)).toEqual([1]);
    expect(addEntry([1], 'x', true)).toEqual([1]);
  });

  it('holds at most 100 items', () => {
    const full = Array.from({ length: 100 }, (_, i) => i);
    expect(addEntry(full, '100', true)).toBe(full);
    expect(addEntry(full.slice(1), '100', true)).toHaveLength(100);
  });
});
