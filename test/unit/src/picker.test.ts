import { describe, expect, it } from 'vitest';
import { filterOptions } from '../../../src/components/Picker';
import { keyedOptions, NO_VARIANT, variantOptions } from '../../../src/lib/options';

describe('picker options', () => {
  const segments = keyedOptions([
    { key: 'beta-testers', name: 'Beta testers' },
    { key: 'staff', name: 'Employees' },
    { key: 'unnamed', name: '' },
  ]);

  it('shows an entity by name, the key when it has none, and stores its key', () => {
    expect(segments).toEqual([
      { value: 'beta-testers', name: 'Beta testers', key: 'beta-testers' },
      { value: 'staff', name: 'Employees', key: 'staff' },
      { value: 'unnamed', name: 'unnamed', key: 'unnamed' },
    ]);
    expect(variantOptions([{ id: 'v1', key: 'blue', name: 'Blue' }])).toEqual([
      { value: 'v1', name: 'Blue', key: 'blue' },
    ]);
    expect(NO_VARIANT.value).toBe('');
  });

  it('filters by name or key, ignoring case and surrounding spaces', () => {
    const names = (search: string) => filterOptions(segments, search).map((option) => option.value);
    expect(names('')).toEqual(['beta-testers', 'staff', 'unnamed']);
    expect(names('  EMPLOY ')).toEqual(['staff']);
    expect(names('staf')).toEqual(['staff']);
    expect(names('te')).toEqual(['beta-testers']);
    expect(names('nothing like it')).toEqual([]);
  });
});
