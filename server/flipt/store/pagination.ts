import type { ListInput } from '../../../domain/flipt/schemas.js';
import { invalid } from '../errors.js';

/** Where a list page starts and how many rows to ask the database for (one more than the page, to see if more follow). */
export interface PageWindow {
  offset: number;
  /** 0: no limit. */
  limit: number;
  fetch: number;
}

/**
 * Reads Flipt's list parameters (reference §2.13): `limit` 0 means everything; `pageToken` (base64 of
 * `{"key": ..., "offset": N}`) wins over the deprecated `offset`. Flags, segments and rules refuse an
 * offset or token without a limit.
 */
export function pageWindow(page: ListInput, { requireLimit }: { requireLimit: boolean }): PageWindow {
  if (requireLimit && page.limit === 0 && (page.pageToken !== '' || page.offset > 0)) {
    throw invalid('limit must be set when offset or pageToken is set');
  }
  const offset = page.pageToken !== '' ? decodePageToken(page.pageToken) : page.offset;
  return { offset, limit: page.limit, fetch: page.limit > 0 ? page.limit + 1 : Number.MAX_SAFE_INTEGER };
}

function decodePageToken(token: string): number {
  let parsed: unknown;
  try {
    const decoded = Buffer.from(token, 'base64');
    if (decoded.toString('base64').replace(/=+$/, '') !== token.replace(/=+$/, '')) throw new Error('not base64');
    parsed = JSON.parse(decoded.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const offset = (parsed as { offset?: unknown } | undefined)?.offset;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw invalid(`pageToken is not valid: "${token}"`);
  }
  return offset;
}

/** Cuts the extra row off a fetched page and names the token of the next page ("" when none). */
export function finishPage<T>(rows: T[], window: PageWindow, keyOf: (row: T) => string): { rows: T[]; nextPageToken: string } {
  if (window.limit === 0 || rows.length <= window.limit) return { rows, nextPageToken: '' };
  const next = rows[window.limit];
  const token = JSON.stringify({ key: keyOf(next), offset: window.offset + window.limit });
  return { rows: rows.slice(0, window.limit), nextPageToken: Buffer.from(token).toString('base64') };
}
