import type { Namespace, Segment, Variant } from '../../domain/flipt/types';
import type { PickerOption } from '../components/Picker';

// Entities as picker options: found by name or key, shown by name (the key when unnamed) with the key beside it.

export function variantOptions(variants: Pick<Variant, 'id' | 'key' | 'name'>[]): PickerOption[] {
  return variants.map((variant) => ({ value: variant.id, name: variant.name || variant.key, key: variant.key }));
}

export function keyedOptions(entities: Pick<Segment | Namespace, 'key' | 'name'>[]): PickerOption[] {
  return entities.map((entity) => ({ value: entity.key, name: entity.name || entity.key, key: entity.key }));
}

/** "None" first, for an optional variant such as a flag's default. */
export const NO_VARIANT: PickerOption = { value: '', name: 'None', key: '' };
