import * as v from 'valibot';
import { ConfigError } from './errors.js';

/** A Flipt duration: a number of nanoseconds or a Go duration string such as `24h` or `10m`. */
export const duration = v.union([v.string(), v.number()]);

const DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Parses a Flipt duration (Go syntax such as `1h30m`, or integer nanoseconds) into milliseconds. */
export function parseDurationMs(value: string | number, key: string): number {
  if (typeof value === 'number') return value / 1e6;
  const pattern = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const match of value.matchAll(pattern)) {
    total += Number(match[1]) * DURATION_UNITS_MS[match[2]];
    consumed += match[0].length;
  }
  if (consumed === 0 || consumed !== value.length) {
    throw new ConfigError(`${key} must be a duration such as "30s", "10m" or "24h" (got "${value}")`);
  }
  return total;
}
