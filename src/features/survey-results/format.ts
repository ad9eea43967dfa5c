/** How the results pages write answers, times and shares. */

/** An answer as text: lists joined, objects as JSON, nothing as an empty string. */
export function answerText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(answerText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Milliseconds as seconds (or minutes past one). */
export function duration(ms: number): string {
  if (!ms) return '0 s';
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

export const percentText = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(2)}%`;

export const count = (value: number) => value.toLocaleString('en-US');
