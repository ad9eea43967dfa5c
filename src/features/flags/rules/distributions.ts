/**
 * Rollout percentages of a rule's distributions. Percentages carry two decimals; arithmetic runs in
 * hundredths of a percent so that an even split adds up to exactly 100.
 */
export const DISTRIBUTIONS_TOTAL_MESSAGE = 'Percentages must add up to 100%';

const HUNDREDTHS = 100 * 100;

/** An even split of 100% over `count` variants; the first ones take the remainder (33.34, 33.33, 33.33). */
export function evenSplit(count: number): number[] {
  if (count <= 0) return [];
  const share = Math.floor(HUNDREDTHS / count);
  const remainder = HUNDREDTHS - share * count;
  return Array.from({ length: count }, (_, index) => (share + (index < remainder ? 1 : 0)) / 100);
}

/** The sum of percentages, exact to two decimals. */
export function totalPercentage(percentages: number[]): number {
  return percentages.reduce((sum, value) => sum + Math.round(value * 100), 0) / 100;
}

/** The message for a set of percentages, or undefined when they are each within 0-100 and total 100. */
export function distributionsError(percentages: number[]): string | undefined {
  if (percentages.some((value) => !Number.isFinite(value) || value < 0 || value > 100))
    return 'Each percentage must be between 0 and 100';
  return totalPercentage(percentages) === 100 ? undefined : DISTRIBUTIONS_TOTAL_MESSAGE;
}
