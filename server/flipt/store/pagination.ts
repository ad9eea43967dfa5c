import type { ListInput } from '../../../domain/flipt/schemas.js';
import type { Database as Tables } from '../../db/schema.js';
import { invalid } from '../errors.js';
import type { Executor } from './executor.js';

/** Where a list page starts and how many rows to ask the database for (one more than the page, to see if more follow). */
export interface PageWindow {
  offset: number;
  /** 0: no limit. */
  limit: number;
  fetch: number;
}

/**
 * Reads Flipt's list parameters: `limit` 0 means everything; `pageToken` (base64 of
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
export function finishPage<T>(
  rows: T[],
  window: PageWindow,
  keyOf: (row: T) => string,
): { rows: T[]; nextPageToken: string } {
  if (window.limit === 0 || rows.length <= window.limit) return { rows, nextPageToken: '' };
  const next = rows[window.limit];
  const token = JSON.stringify({ key: keyOf(next), offset: window.offset + window.limit });
  return { rows: rows.slice(0, window.limit), nextPageToken: Buffer.from(token).toString('base64') };
}

/** One page of rows with Flipt's `nextPageToken` and `totalCount`. */
export interface Page<Row> {
  rows: Row[];
  nextPageToken: string;
  totalCount: number;
}

/** A page of a namespace's flags or segments, oldest first (then by key); the token names the next row's key. */
export function namespacePage<T extends 'flags' | 'segments'>(
  executor: Executor,
  table: T,
  namespaceKey: string,
  window: PageWindow,
): Promise<Page<Tables[T]>> {
  return listPage(executor, table, { namespaceKey }, window);
}

/** A page of a flag's rules or rollouts by rank (then age); the token names the next row's id. */
export function flagPage<T extends 'rules' | 'rollouts'>(
  executor: Executor,
  table: T,
  namespaceKey: string,
  flagKey: string,
  window: PageWindow,
): Promise<Page<Tables[T]>> {
  return listPage(executor, table, { namespaceKey, flagKey }, window);
}

type ListedTable = 'flags' | 'segments' | 'rules' | 'rollouts';

/** The page's rows and the count of all rows in scope, read side by side. */
async function listPage<T extends ListedTable>(
  { db }: Executor,
  table: T,
  scope: { namespaceKey: string; flagKey?: string },
  window: PageWindow,
): Promise<Page<Tables[T]>> {
  const from: ListedTable = table;
  const ranked = table === 'rules' || table === 'rollouts';
  let rows = db.selectFrom(from).selectAll().where('namespace_key', '=', scope.namespaceKey);
  let count = db
    .selectFrom(from)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('namespace_key', '=', scope.namespaceKey);
  if (scope.flagKey !== undefined) {
    rows = rows.where('flag_key', '=', scope.flagKey);
    count = count.where('flag_key', '=', scope.flagKey);
  }
  rows = ranked ? rows.orderBy('rank').orderBy('created_at') : rows.orderBy('created_at').orderBy('key');
  const [found, counted] = await Promise.all([
    rows.offset(window.offset).limit(window.fetch).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  const keyOf = (row: Tables[ListedTable]) =>
    ranked ? (row as Tables['rules' | 'rollouts']).id : (row as Tables['flags' | 'segments']).key;
  const result = finishPage(found as Tables[T][], window, keyOf);
  return { ...result, totalCount: Number(counted.n) };
}
