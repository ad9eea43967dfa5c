import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  type MetadataEntry,
  metadataProblems,
  metadataRule,
  retyped,
  toEntries,
  toMetadata,
} from '../../../src/features/flags/metadata';

describe('flag metadata in the flag form', () => {
  const metadata = {
    team: 'growth',
    count: '5',
    tier: 2,
    beta: false,
    owners: ['ann', 'bob'],
    limits: { rps: 10 },
    nothing: null,
  };

  it('edits each key with the type of its JSON value, and gives the same metadata back', () => {
    const entries = toEntries(metadata);
    expect(entries).toEqual([
      { key: 'team', type: 'string', value: 'growth' },
      // A string of digits stays a string: saving a flag never changes its metadata's types.
      { key: 'count', type: 'string', value: '5' },
      { key: 'tier', type: 'number', value: '2' },
      { key: 'beta', type: 'boolean', value: 'false' },
      { key: 'owners', type: 'json', value: '["ann","bob"]' },
      { key: 'limits', type: 'json', value: '{"rps":10}' },
      { key: 'nothing', type: 'json', value: 'null' },
    ]);
    expect(toMetadata(entries)).toEqual(metadata);
    expect(toEntries(undefined)).toEqual([]);
    expect(toMetadata([])).toEqual({});
  });

  it('reads typed values by their type', () => {
    expect(
      toMetadata([
        { key: 'n', type: 'number', value: ' 1.5 ' },
        { key: 'b', type: 'boolean', value: 'true' },
        { key: 's', type: 'string', value: '' },
      ]),
    ).toEqual({ n: 1.5, b: true, s: '' });
  });

  it('requires a unique key, a number for a number and JSON for JSON', () => {
    const entries: MetadataEntry[] = [
      { key: '', type: 'string', value: 'x' },
      { key: 'a', type: 'number', value: 'ten' },
      { key: 'a', type: 'json', value: '{oops' },
      { key: 'b', type: 'number', value: '' },
      { key: 'c', type: 'string', value: '' },
    ];
    expect(metadataProblems(entries)).toEqual([
      { key: 'Key is required' },
      { key: 'Key must be unique', value: 'Must be a number' },
      { key: 'Key must be unique', value: 'Must be valid JSON' },
      { value: 'Must be a number' },
      undefined,
    ]);
    expect(v.safeParse(metadataRule, entries).success).toBe(false);
    expect(v.safeParse(metadataRule, entries.slice(4)).success).toBe(true);
  });

  it('turns a value into a boolean when its type becomes Boolean, and keeps the text otherwise', () => {
    const entry: MetadataEntry = { key: 'k', type: 'string', value: 'true' };
    expect(retyped(entry, 'boolean')).toEqual({ key: 'k', type: 'boolean', value: 'true' });
    expect(retyped({ ...entry, value: 'yes' }, 'boolean').value).toBe('false');
    expect(retyped({ ...entry, value: '12' }, 'number')).toEqual({ key: 'k', type: 'number', value: '12' });
  });
});
