import { type QueryKey, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { request } from './client';

/** Rows of the first page: a few tens of kilobytes of typical flags, shown as soon as they arrive. */
export const FIRST_PAGE_SIZE = 100;
/** Rows of each later page, fetched one after the other in the background until the list is whole. */
export const NEXT_PAGE_SIZE = 1000;

interface ListAnswer {
  nextPageToken: string;
  totalCount: number;
}

export interface PagedList<T> {
  /** The rows fetched so far, undefined before the first page. */
  items: T[] | undefined;
  /** Every row of the list, by the server's count. */
  totalCount: number;
  /** Every page is in. */
  complete: boolean;
  isSuccess: boolean;
  isError: boolean;
  error: Error | null;
}

/**
 * A whole list read through the Flipt API's paging alone (`limit` and `pageToken`, so any Flipt
 * server answers it): the first page small, to show rows at once, the rest in the background. Each
 * page kept in the query's cache: a list shown again refetches page by page while it shows what it
 * has, except a list a change invalidated, which starts again from a fresh first page (see below).
 * The rows handed on grow only at the first page, when the page count reaches a power of two and
 * when the list is whole: a list of 100,000 is sorted a few times while it loads, not 100 times.
 * `itemsOf` must be a constant (defined outside the component).
 */
export function usePagedList<T, A extends ListAnswer>(
  queryKey: QueryKey,
  path: string,
  itemsOf: (answer: A) => T[],
): PagedList<T> {
  // After a change the operator made, the list fetches its first page alone, shows it, and loads the
  // rest again in the background: the change shows at once, where React Query would fetch every page
  // again before showing any (a hundred requests at 100,000 flags). `pages` is React Query's count of
  // pages a refetch fetches (by default, as many as are cached); its types offer it only to
  // `queryClient.infiniteQuery`, but every infinite query reads it, so it is passed typed `object`.
  const refetchFirstPage: object = useQueryClient().getQueryState(queryKey)?.isInvalidated ? { pages: 1 } : {};
  const query = useInfiniteQuery({
    queryKey,
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      request<A>(
        'GET',
        pageParam
          ? `${path}?limit=${NEXT_PAGE_SIZE}&pageToken=${encodeURIComponent(pageParam)}`
          : `${path}?limit=${FIRST_PAGE_SIZE}`,
      ),
    getNextPageParam: (last) => last.nextPageToken || undefined,
    ...refetchFirstPage,
  });
  const { hasNextPage, isFetching, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetching && !isError) void fetchNextPage();
  }, [hasNextPage, isFetching, isError, fetchNextPage]);

  const pages = query.data?.pages ?? [];
  const complete = query.isSuccess && !hasNextPage;
  const shown = pages.slice(0, complete ? pages.length : 2 ** Math.floor(Math.log2(Math.max(1, pages.length))));
  const cached = useRef<{ pages: A[]; items: T[] }>(undefined);
  const previous = cached.current;
  if (
    query.data &&
    (!previous || previous.pages.length !== shown.length || shown.some((page, i) => page !== previous.pages[i]))
  ) {
    cached.current = { pages: shown, items: shown.flatMap(itemsOf) };
  }
  return {
    items: query.data ? cached.current?.items : undefined,
    totalCount: pages[pages.length - 1]?.totalCount ?? 0,
    complete,
    isSuccess: query.isSuccess,
    isError,
    error: query.error,
  };
}
