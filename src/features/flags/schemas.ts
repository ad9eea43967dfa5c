import * as v from 'valibot';
import { jsonRule, keyRule, keyWithDotRule, requiredString } from '../../lib/validation';

export const flagSchema = v.object({ key: keyRule, name: requiredString });

export const variantSchema = v.object({ key: keyWithDotRule, attachment: jsonRule });

export const FLAG_TYPE_LABELS: Record<string, string> = { VARIANT_FLAG_TYPE: 'Variant', BOOLEAN_FLAG_TYPE: 'Boolean' };

export function flagTypeLabel(type: string): string {
  return FLAG_TYPE_LABELS[type] ?? 'Unknown';
}
