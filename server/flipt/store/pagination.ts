import { type RawBuilder, sql } from 'kysely';
import type { ListInput } from '../../../domain/flipt/schemas.js';
import type { Database as Tables } from '../../db/schema.js';
import { invalid } from '../errors.js';
import type { Executor } from '../../db/executor.js';

/** Where a list page starts and how many rows to ask the database for (one more than the page, to see if more follow). */
export interface PageWindow {
  offset: number;
  /** The key (or, for rules and rollouts, the id) of the page's first row, from the page token. */
  startKey?: string;
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
  const fetch = page.limit > 0 ? page.limit + 1 : Number.MAX_SAFE_INTEGER;
  if (page.pageToken === '') return { offset: page.offset, limit: page.limit, fetch };
  return { ...decodePageToken(page.pageToken), limit: page.limit, fetch };
}

function decodePageToken(token: string): { offset: number; startKey?: string } {
  let parsed: { key?: unknown; offset?: unknown } | undefined;
  try {
    const decoded = Buffer.from(token, 'base64');
    if (decoded.toString('base64').replace(/=+$/, '') !== token.replace(/=+$/, '')) throw new Error('not base64');
    parsed = JSON.parse(decoded.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const offset = parsed?.offset;
  const key = parsed?.key;
  if (
    typeof offset !== 'number' ||
    !Number.isSafeInteger(offset) ||
    offset < 0 ||
    (key !== undefined && typeof key !== 'string')
  ) {
    throw invalid(`pageToken is not valid: "${token}"`);
  }
  return key ? { offset, startKey: key } : { offset };
}

/** Cuts the extra row off a fetched page and names the token of the next page ("" when none). */
function finishPage<T>(rows: T[], window: PageWindow, keyOf: (row: T) => string): { rows: T[]; nextPageToken: string } {
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

/** A page of the namespaces, oldest first (then by key); the token names the next row's key. */
export function namespacesPage(executor: Executor, window: PageWindow): Promise<Page<Tables['namespaces']>> {
  return listPage(executor, 'namespaces', {}, window);
}

/**
 * A page of a namespace's flags or segments, oldest first (then by key); the token names the next
 * row's key. `counted: false` skips counting the namespace's rows (`totalCount` is then 0): a reader
 * going through every page (an export) would otherwise count them all once per page.
 */
export function namespacePage<T extends 'flags' | 'segments'>(
  executor: Executor,
  table: T,
  namespaceKey: string,
  window: PageWindow,
  counted = true,
): Promise<Page<Tables[T]>> {
  return listPage(executor, table, { namespaceKey }, window, counted);
}

/** A page of a flag's rules or rollouts by rank (then age, then id); the token names the next row's id. */
export function flagPage<T extends 'rules' | 'rollouts'>(
  executor: Executor,
  table: T,
  namespaceKey: string,
  flagKey: string,
  window: PageWindow,
): Promise<Page<Tables[T]>> {
  return listPage(executor, table, { namespaceKey, flagKey }, window);
}

type ListedTable = 'namespaces' | 'flags' | 'segments' | 'rules' | 'rollouts';
type OrderColumn = 'created_at' | 'key' | 'rank' | 'id';

/** Each list's order; its last column is unique in the list's scope and is what page tokens name. */
export const ORDER: Record<ListedTable, readonly OrderColumn[]> = {
  namespaces: ['created_at', 'key'],
  flags: ['created_at', 'key'],
  segments: ['created_at', 'key'],
  rules: ['rank', 'created_at', 'id'],
  rollouts: ['rank', 'created_at', 'id'],
};

interface Scope {
  namespaceKey?: string;
  flagKey?: string;
}

/**
 * The page's rows and the count of all rows in scope, read side by side. A token whose row still
 * exists continues from that row by the list's order (keyset, so page 1,000 costs what page 1 does,
 * with the `*_list_idx` indexes); a token naming a row deleted since, or a bare offset, skips rows.
 */
async function listPage<T extends ListedTable>(
  executor: Executor,
  table: T,
  scope: Scope,
  window: PageWindow,
  counted = true,
): Promise<Page<Tables[T]>> {
  const { db } = executor;
  const from: ListedTable = table;
  const order = ORDER[table];
  const tokenColumn = order[order.length - 1];
  const conditions: RawBuilder<boolean>[] = [];
  if (scope.namespaceKey !== undefined) conditions.push(sql<boolean>`namespace_key = ${scope.namespaceKey}`);
  if (scope.flagKey !== undefined) conditions.push(sql<boolean>`flag_key = ${scope.flagKey}`);
  const inScope = sql<boolean>`${sql.join(conditions.length ? conditions : [sql`1 = 1`], sql` and `)}`;
  const start =
    window.startKey === undefined
      ? undefined
      : ((await db
          .selectFrom(from)
          .select(order as OrderColumn[])
          .where(inScope)
          .where(tokenColumn, '=', window.startKey)
          .executeTakeFirst()) as Record<OrderColumn, unknown> | undefined);
  let rows = db.selectFrom(from).selectAll().where(inScope);
  if (start) rows = rows.where(atOrAfter(order, start));
  for (const column of order) rows = rows.orderBy(column);
  if (!start && window.offset > 0) rows = rows.offset(window.offset);
  const [found, count] = await Promise.all([
    rows.limit(window.fetch).execute(),
    counted
      ? db
          .selectFrom(from)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where(inScope)
          .executeTakeFirstOrThrow()
      : { n: 0 },
  ]);
  const result = finishPage(
    found as Tables[T][],
    window,
    (row) => (row as unknown as Record<OrderColumn, string>)[tokenColumn],
  );
  return { ...result, totalCount: Number(count.n) };
}

/** `(a, b, ...) >= (start.a, start.b, ...)`, a row-value comparison both databases answer from an index. */
function atOrAfter(order: readonly OrderColumn[], start: Record<OrderColumn, unknown>): RawBuilder<boolean> {
  const columns = sql.join(order.map((column) => sql.ref(column)));
  const values = sql.join(order.map((column) => start[column]));
  return sql<boolean>`(${columns}) >= (${values})`;
}
