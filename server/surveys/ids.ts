import { randomBytes } from 'node:crypto';

let counter = 0;

/**
 * A cuid-shaped id: "c", a base-36 millisecond timestamp, a per-process counter and random base-36
 * characters, 25 lowercase alphanumerics in all. Satisfies both checks Formbricks applies to ids
 * (`/^c[^\s-]{8,}$/i` and `/^[a-z][a-z0-9]*$/`).
 */
export function cuid(): string {
  counter = (counter + 1) % 36 ** 4;
  const time = Date.now().toString(36).padStart(8, '0').slice(-8);
  const count = counter.toString(36).padStart(4, '0');
  let random = '';
  for (const byte of randomBytes(12)) random += (byte % 36).toString(36);
  return `c${time}${count}${random}`;
}

/** The ids this server accepts: what `cuid()` makes, and what Formbricks' two checks both allow. */
export const CUID = /^c[a-z0-9]{8,}$/;
