/**
 * The history feature's API, in the shape of flags/api.ts: request functions, query keys led by the
 * git ref, `queryOptions` factories, and the revert's mutation hook.
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { HistoryEntry, HistoryPage, RevertPreview } from '../../../domain/flipt/history';
import { API, request } from '../../api/client';
import { useCurrentRef } from '../../api/currentRef';
import { useInvalidatingMutation } from '../../api/mutation';
import type { HistoryFilter } from './schemas';

const enc = encodeURIComponent;
const PAGE_SIZE = 20;

export const historyPath = (namespaceKey: string) => `${API}/namespaces/${enc(namespaceKey)}/history`;
const revertPath = (namespaceKey: string, id: string) => `${historyPath(namespaceKey)}/${enc(id)}/revert`;

export const historyKeys = {
  namespace: (ref: string, namespaceKey: string) => [ref, 'history', namespaceKey] as const,
  list: (ref: string, namespaceKey: string, filter: HistoryFilter) =>
    [...historyKeys.namespace(ref, namespaceKey), 'list', filter] as const,
  revert: (ref: string, namespaceKey: string, id: string) =>
    [...historyKeys.namespace(ref, namespaceKey), 'revert', id] as const,
};

function pageQuery(filter: HistoryFilter, pageToken: string): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
  if (pageToken) query.set('pageToken', pageToken);
  return query.toString();
}

/** A namespace's history, newest first, a page at a time (keyset: each page names the next). */
export const historyQuery = (ref: string, namespaceKey: string, filter: HistoryFilter) =>
  infiniteQueryOptions({
    queryKey: historyKeys.list(ref, namespaceKey, filter),
    queryFn: ({ pageParam }) =>
      request<HistoryPage>('GET', `${historyPath(namespaceKey)}?${pageQuery(filter, pageParam)}`),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextPageToken || undefined,
  });

export const useHistory = (namespaceKey: string, filter: HistoryFilter) =>
  useInfiniteQuery(historyQuery(useCurrentRef(), namespaceKey, filter));

/** What a revert would do, read afresh each time it is asked: the entity may have changed since. */
export const revertPreviewQuery = (ref: string, namespaceKey: string, id: string) =>
  queryOptions({
    queryKey: historyKeys.revert(ref, namespaceKey, id),
    queryFn: () => request<RevertPreview>('GET', revertPath(namespaceKey, id)),
    staleTime: 0,
    gcTime: 0,
  });

export const useRevertPreview = (namespaceKey: string, id: string) =>
  useQuery(revertPreviewQuery(useCurrentRef(), namespaceKey, id));

export const revert = (namespaceKey: string, id: string) => request<HistoryEntry>('POST', revertPath(namespaceKey, id));

/**
 * Reverts an entry; a revert may change any flag or segment, so every cached query (the empty key is
 * the prefix of all) is refetched when next shown.
 */
export const useRevert = (namespaceKey: string) =>
  useInvalidatingMutation(
    (id: string) => revert(namespaceKey, id),
    () => [[]],
  );
