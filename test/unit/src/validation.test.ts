import { describe, expect, it } from 'vitest';
import { validate } from '../../../src/lib/form';
import { MESSAGES, contextRule, jsonRule, numberArrayRule, stringArrayRule } from '../../../src/lib/validation';
import { flagSchema, variantSchema } from '../../../src/features/flags/schemas';
import { constraintSchema, segmentSchema } from '../../../src/features/segments/schemas';
import * as v from 'valibot';

const message = (schema: v.GenericSchema, value: string) => {
  const result = v.safeParse(schema, value);
  return result.success ? undefined : result.issues[0].message;
};

const constraint = (change: Record<string, string>) => ({
  property: 'p',
  type: 'STRING_COMPARISON_TYPE',
  operator: 'eq',
  value: 'x',
  description: '',
  ...change,
});

describe('flag form', () => {
  it('requires key and name', () => {
    expect(validate(flagSchema, { key: '', name: '' })).toEqual({ key: 'Required', name: 'Required' });
  });

  it('allows letters, numbers, hyphens, underscores and commas in the key', () => {
    expect(validate(flagSchema, { key: 'a-B_9,x', name: 'n' })).toEqual({});
    for (const key of ['a.b', 'a b', 'a/b', 'ä']) {
      expect(validate(flagSchema, { key, name: 'n' })).toEqual({
        key: 'Only letters, numbers, hypens and underscores allowed',
      });
    }
  });
});

describe('segment form', () => {
  it('requires key and name and applies the key rule', () => {
    expect(validate(segmentSchema, { key: '', name: '' })).toEqual({ key: 'Required', name: 'Required' });
    expect(validate(segmentSchema, { key: 'a.b', name: 'n' })).toEqual({ key: MESSAGES.key });
  });
});

describe('variant form', () => {
  it('allows dots in the key', () => {
    expect(validate(variantSchema, { key: 'v1.2', attachment: '' })).toEqual({});
    expect(validate(variantSchema, { key: 'v 1', attachment: '' })).toEqual({
      key: 'Only letters, numbers, hypens, dots and underscores allowed',
    });
    expect(validate(variantSchema, { key: '', attachment: '' })).toEqual({ key: 'Required' });
  });

  it('accepts an empty or JSON attachment', () => {
    expect(validate(variantSchema, { key: 'v', attachment: '{"a": [1, 2]}' })).toEqual({});
    expect(validate(variantSchema, { key: 'v', attachment: '{"a":' })).toEqual({ attachment: 'Must be valid JSON' });
  });
});

describe('shared rules', () => {
  it('Must be valid JSON (empty allowed)', () => {
    expect(message(jsonRule, '')).toBeUndefined();
    expect(message(jsonRule, '42')).toBeUndefined();
    expect(message(jsonRule, '{')).toBe('Must be valid JSON');
  });

  it('Must be valid context value: a JSON object of strings', () => {
    expect(message(contextRule, '{"plan": "pro"}')).toBeUndefined();
    for (const text of ['{"age": 3}', '["a"]', 'null', '"s"', '{'])
      expect(message(contextRule, text)).toBe('Must be valid context value');
  });

  it('Must be valid JSON string array / number array, at most 100 items', () => {
    expect(message(stringArrayRule, '["a","b"]')).toBeUndefined();
    expect(message(stringArrayRule, '["a",1]')).toBe('Must be valid JSON string array');
    expect(message(numberArrayRule, '[1,2.5]')).toBeUndefined();
    expect(message(numberArrayRule, '["1"]')).toBe('Must be valid JSON number array');
    expect(message(numberArrayRule, JSON.stringify(Array.from({ length: 100 }, (_, i) => i)))).toBeUndefined();
    expect(message(numberArrayRule, JSON.stringify(Array.from({ length: 101 }, (_, i) => i)))).toBe(
      'Too many items (maximum 100)',
    );
    expect(message(stringArrayRule, JSON.stringify(Array.from({ length: 101 }, (_, i) => `${i}`)))).toBe(
      'Too many items (maximum 100)',
    );
  });
});

describe('constraint form', () => {
  it('requires the property', () => {
    expect(validate(constraintSchema, constraint({ property: '' }))).toEqual({ property: 'Required' });
  });

  it('requires a value for operators that take one, and none for the others', () => {
    expect(validate(constraintSchema, constraint({ value: '' }))).toEqual({ value: 'Value is required' });
    expect(validate(constraintSchema, constraint({ value: '  ' }))).toEqual({ value: 'Value is required' });
    for (const operator of ['empty', 'notempty'])
      expect(validate(constraintSchema, constraint({ operator, value: '' }))).toEqual({});
    for (const operator of ['true', 'false', 'present', 'notpresent']) {
      expect(validate(constraintSchema, constraint({ type: 'BOOLEAN_COMPARISON_TYPE', operator, value: '' }))).toEqual(
        {},
      );
    }
  });

  it('checks datetimes', () => {
    const datetime = (value: string) =>
      validate(constraintSchema, constraint({ type: 'DATETIME_COMPARISON_TYPE', operator: 'gt', value }));
    expect(datetime('2024-03-01T13:45:00Z')).toEqual({});
    expect(datetime('2024-03-01')).toEqual({});
    expect(datetime('2024-03-01T13:45:00.5+02:00')).toEqual({});
    expect(datetime('yesterday')).toEqual({ value: 'Value is not a valid datetime' });
    expect(datetime('2024-13-45')).toEqual({ value: 'Value is not a valid datetime' });
  });

  it('checks lists of isoneof and isnotoneof by type', () => {
    const list = (type: string, operator: string, value: string) =>
      validate(constraintSchema, constraint({ type, operator, value }));
    expect(list('STRING_COMPARISON_TYPE', 'isoneof', '["a"]')).toEqual({});
    expect(list('STRING_COMPARISON_TYPE', 'isnotoneof', '[1]')).toEqual({ value: 'Must be valid JSON string array' });
    expect(list('ENTITY_ID_COMPARISON_TYPE', 'isoneof', 'a')).toEqual({ value: 'Must be valid JSON string array' });
    expect(list('NUMBER_COMPARISON_TYPE', 'isoneof', '[1,2]')).toEqual({});
    expect(list('NUMBER_COMPARISON_TYPE', 'isoneof', '["1"]')).toEqual({ value: 'Must be valid JSON number array' });
    expect(list('NUMBER_COMPARISON_TYPE', 'isoneof', JSON.stringify(Array.from({ length: 101 }, (_, i) => i)))).toEqual(
      {
        value: 'Too many items (maximum 100)',
      },
    );
  });
});
