import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { HistoryEntry, HistoryPage, RevertPreview } from '../../../domain/flipt/history';
import { API, request } from '../../api/client';
import type { HistoryFilter } from './schemas';

const enc = encodeURIComponent;
const PAGE_SIZE = 20;

export const historyPath = (namespaceKey: string) => `${API}/namespaces/${enc(namespaceKey)}/history`;
const revertPath = (namespaceKey: string, id: string) => `${historyPath(namespaceKey)}/${enc(id)}/revert`;

export const historyKeys = {
  all: ['history'] as const,
  namespace: (namespaceKey: string) => [...historyKeys.all, namespaceKey] as const,
  list: (namespaceKey: string, filter: HistoryFilter) =>
    [...historyKeys.namespace(namespaceKey), 'list', filter] as const,
  revert: (namespaceKey: string, id: string) => [...historyKeys.namespace(namespaceKey), 'revert', id] as const,
};

function pageQuery(filter: HistoryFilter, pageToken: string): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
  if (pageToken) query.set('pageToken', pageToken);
  return query.toString();
}

/** A namespace's history, newest first, a page at a time (keyset: each page names the next). */
export const historyOptions = (namespaceKey: string, filter: HistoryFilter) =>
  infiniteQueryOptions({
    queryKey: historyKeys.list(namespaceKey, filter),
    queryFn: ({ pageParam }) =>
      request<HistoryPage>('GET', `${historyPath(namespaceKey)}?${pageQuery(filter, pageParam)}`),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextPageToken || undefined,
  });

export const useHistory = (namespaceKey: string, filter: HistoryFilter) =>
  useInfiniteQuery(historyOptions(namespaceKey, filter));

/** What a revert would do, read afresh each time it is asked: the entity may have changed since. */
export const revertPreviewOptions = (namespaceKey: string, id: string) =>
  queryOptions({
    queryKey: historyKeys.revert(namespaceKey, id),
    queryFn: () => request<RevertPreview>('GET', revertPath(namespaceKey, id)),
    staleTime: 0,
    gcTime: 0,
  });

export const useRevertPreview = (namespaceKey: string, id: string) => useQuery(revertPreviewOptions(namespaceKey, id));

/** Reverts an entry; a revert may change any flag or segment, so every cached query is refetched when next shown. */
export function useRevert(namespaceKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<HistoryEntry>('POST', revertPath(namespaceKey, id)),
    onSuccess: () => client.invalidateQueries(),
  });
}
