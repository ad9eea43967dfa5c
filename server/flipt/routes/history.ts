import { HISTORY_ENTITY_TYPES, type HistoryEntityType } from '../../../domain/flipt/history.js';
import { invalid } from '../errors.js';
import type { HistoryQuery } from '../store/history.js';
import type { FliptStore } from '../store/index.js';
import type { FliptRoutes } from './http.js';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

/** Ensign's change history (docs/compatibility.md): a namespace's entries, newest first, and reverting one. */
export function historyRoutes(routes: FliptRoutes, store: FliptStore): void {
  const only = { legacy: false };
  routes.namespaced(
    'GET',
    '/history',
    async ({ namespaceKey, query }) => store.listHistory(namespaceKey, historyQuery(query)),
    only,
  );
  routes.namespaced(
    'GET',
    '/history/:id/revert',
    async ({ namespaceKey, params }) => store.revertPreview(namespaceKey, params.id),
    only,
  );
  routes.namespaced(
    'POST',
    '/history/:id/revert',
    async ({ namespaceKey, params }) => store.revert(namespaceKey, params.id),
    only,
  );
}

/** Checked by hand, in this order: which problem a query with several is answered with is part of the API. */
function historyQuery(query: Record<string, unknown>): HistoryQuery {
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw invalid(`invalid field ${name}: must be given once`);
    return value;
  };
  const entityType = text('entityType');
  if (entityType !== undefined && !HISTORY_ENTITY_TYPES.includes(entityType as HistoryEntityType))
    throw invalid(`invalid field entityType: must be one of ${HISTORY_ENTITY_TYPES.join(', ')}`);
  const time = (name: string) => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!RFC3339.test(value) || Number.isNaN(Date.parse(value)))
      throw invalid(`invalid field ${name}: must be an RFC 3339 time`);
    return new Date(value).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  };
  const limitText = text('limit');
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw invalid(`invalid field limit: must be a whole number from 1 to ${MAX_LIMIT}`);
  const entityKey = text('entityKey');
  if (entityKey !== undefined && entityType === undefined) throw invalid('invalid field entityKey: needs entityType');
  return {
    entityType: entityType as HistoryEntityType | undefined,
    entityKey,
    actor: text('actor'),
    since: time('since'),
    until: time('until'),
    limit,
    pageToken: text('pageToken'),
  };
}
