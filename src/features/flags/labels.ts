export const FLAG_TYPE_LABELS: Record<string, string> = { VARIANT_FLAG_TYPE: 'Variant', BOOLEAN_FLAG_TYPE: 'Boolean' };

export function flagTypeLabel(type: string): string {
  return FLAG_TYPE_LABELS[type] ?? 'Unknown';
}
