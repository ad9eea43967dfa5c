import type { Flag } from '../../../domain/flipt/types';

export const FLAG_TYPE_LABELS: Record<string, string> = { VARIANT_FLAG_TYPE: 'Variant', BOOLEAN_FLAG_TYPE: 'Boolean' };

export function flagTypeLabel(type: string): string {
  return FLAG_TYPE_LABELS[type] ?? 'Unknown';
}

/**
 * What the flag list shows of a flag's evaluation: a boolean flag's default value, the one it returns when
 * no rollout matches (True or False), or whether a variant flag is enabled.
 */
export function evaluationLabel(flag: Pick<Flag, 'type' | 'enabled'>): string {
  if (flag.type === 'BOOLEAN_FLAG_TYPE') return flag.enabled ? 'True' : 'False';
  return flag.enabled ? 'Enabled' : 'Disabled';
}
