import { describe, expect, it } from 'vitest';
import { validate } from '../../../src/lib/form';
import {
  CreateConstraintRequest,
  CreateFlagRequest,
  CreateVariantRequest,
  parseRequest,
} from '../../../domain/flipt/schemas';
import { OPERATORS } from '../../../domain/flipt/keys';
import type { ComparisonType } from '../../../domain/flipt/types';
import { MESSAGES, attachmentRule, contextRule, keyRule } from '../../../src/lib/validation';
import {
  type FlagFormValues,
  type VariantValues,
  flagSchema,
  variantSchema,
} from '../../../src/features/flags/schemas';
import { constraintSchema, segmentSchema } from '../../../src/features/segments/schemas';
import * as v from 'valibot';

const message = (schema: v.GenericSchema, value: string) => {
  const result = v.safeParse(schema, value);
  return result.success ? undefined : result.issues[0].message;
};

// The flag and variant forms' whole values, with the fields under test changed.
const flagForm = (change: Partial<FlagFormValues>): FlagFormValues => ({
  key: '',
  name: '',
  description: '',
  type: 'VARIANT_FLAG_TYPE',
  enabled: false,
  defaultVariantId: '',
  metadata: [],
  ...change,
});
const variantForm = (change: Partial<VariantValues>): VariantValues => ({
  key: '',
  name: '',
  description: '',
  attachment: '',
  ...change,
});

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
    expect(validate(flagSchema, flagForm({ key: '', name: '' }))).toEqual({ key: 'Required', name: 'Required' });
  });

  it('allows letters, numbers, hyphens, underscores and commas in the key', () => {
    expect(validate(flagSchema, flagForm({ key: 'a-B_9,x', name: 'n' }))).toEqual({});
    for (const key of ['a.b', 'a b', 'a/b', 'ä']) {
      expect(validate(flagSchema, flagForm({ key, name: 'n' }))).toEqual({
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
    expect(validate(variantSchema, variantForm({ key: 'v1.2', attachment: '' }))).toEqual({});
    expect(validate(variantSchema, variantForm({ key: 'v 1', attachment: '' }))).toEqual({
      key: 'Only letters, numbers, hypens, dots and underscores allowed',
    });
    expect(validate(variantSchema, variantForm({ key: '', attachment: '' }))).toEqual({ key: 'Required' });
  });

  it('accepts an empty or JSON attachment', () => {
    expect(validate(variantSchema, variantForm({ key: 'v', attachment: '{"a": [1, 2]}' }))).toEqual({});
    expect(validate(variantSchema, variantForm({ key: 'v', attachment: '{"a":' }))).toEqual({
      attachment: 'Must be valid JSON',
    });
  });
});

describe('shared rules', () => {
  it("Must be valid JSON (empty allowed), and at most the server's attachment size", () => {
    expect(message(attachmentRule, '')).toBeUndefined();
    expect(message(attachmentRule, '42')).toBeUndefined();
    expect(message(attachmentRule, '{')).toBe('Must be valid JSON');
    expect(message(attachmentRule, JSON.stringify('x'.repeat(1_024_000)))).toBe('Must be less than 1000 KB');
  });

  it('keys of at most 255 characters', () => {
    expect(message(keyRule, 'k'.repeat(255))).toBeUndefined();
    expect(message(keyRule, 'k'.repeat(256))).toBe('Must be at most 255 characters');
  });

  it('Must be valid context value: a JSON object of strings', () => {
    expect(message(contextRule, '{"plan": "pro"}')).toBeUndefined();
    for (const text of ['{"age": 3}', '["a"]', 'null', '"s"', '{'])
      expect(message(contextRule, text)).toBe('Must be valid context value');
  });
});

describe('the console accepts what the server accepts', () => {
  const accepted = (result: { success: boolean }) => result.success;

  it('constraint values, for every type and operator', () => {
    const types = [
      'STRING_COMPARISON_TYPE',
      'NUMBER_COMPARISON_TYPE',
      'DATETIME_COMPARISON_TYPE',
      'ENTITY_ID_COMPARISON_TYPE',
    ];
    const operators = ['eq', 'neq', 'gt', 'prefix', 'isoneof', 'isnotoneof', 'empty', 'present'];
    const values = [
      '',
      'x',
      '3',
      '["a"]',
      '[1,2]',
      '[1,"a"]',
      '2024-03-01',
      '2024-03-01T13:45Z',
      '2024-03-01T13:45:00Z',
      '2024-02-30',
      JSON.stringify(Array.from({ length: 101 }, (_, i) => i)),
    ];
    let compared = 0;
    for (const type of types)
      for (const operator of operators) {
        const property = type === 'ENTITY_ID_COMPARISON_TYPE' ? 'entityId' : 'p';
        // An operator the type does not take: the form never offers it.
        if (!OPERATORS[type as ComparisonType].includes(operator)) continue;
        for (const value of values) {
          const input = { segmentKey: 's', type, property, operator, value };
          const console = validate(constraintSchema, { property, type, operator, value, description: '' });
          expect([type, operator, value, Object.keys(console).length === 0]).toEqual([
            type,
            operator,
            value,
            accepted(parseRequest(CreateConstraintRequest, input)),
          ]);
          compared++;
        }
      }
    expect(compared).toBeGreaterThan(150);
  });

  it('flag keys and variant attachments', () => {
    for (const key of ['a', 'a-b_c,d', 'a.b', 'a b', 'k'.repeat(255), 'k'.repeat(256)])
      expect([key, Object.keys(validate(flagSchema, flagForm({ key, name: 'n' }))).length === 0]).toEqual([
        key,
        accepted(parseRequest(CreateFlagRequest, { key, name: 'n', type: 'VARIANT_FLAG_TYPE' })),
      ]);
    for (const attachment of ['', '{}', '{', '[1]', JSON.stringify('x'.repeat(1_024_000))])
      expect([
        attachment.slice(0, 9),
        Object.keys(validate(variantSchema, variantForm({ key: 'v', attachment }))).length === 0,
      ]).toEqual([
        attachment.slice(0, 9),
        accepted(parseRequest(CreateVariantRequest, { flagKey: 'f', key: 'v', attachment })),
      ]);
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
    // The server needs the seconds: the console once accepted this and the server then refused it.
    expect(datetime('2024-03-01T13:45Z')).toEqual({ value: 'Value is not a valid datetime' });
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
