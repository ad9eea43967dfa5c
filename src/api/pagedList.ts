import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { request } from './client';

/** Rows of the first page: a few tens of kilobytes of typical flags, shown as soon as they arrive. */
export const FIRST_PAGE_SIZE = 100;
/** Rows of each later page, fetched one after the other in the background until the list is whole. */
export const NEXT_PAGE_SIZE = 1000;

/**
 * React Query's `pages` option: how many pages a refetch fetches from the first (by default, as many
 * as are cached). Its types offer it only to `queryClient.infiniteQuery`, but every infinite query
 * reads it; typed `object` so that the spread passes it on.
 */
const REFETCH_FIRST_PAGE: object = { pages: 1 };

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
 * server answers it): the first page small, to show rows at once, the rest in the background. A
 * refetch (an invalidated list shown again) fetches the first page alone and then the rest in the
 * background again, so fresh rows show at once: React Query would otherwise fetch every page again
 * before showing any (a hundred requests at 100,000 flags).
 * The rows handed on grow only at the first page, when the page count reaches a power of two and
 * when the list is whole: a list of 100,000 is sorted a few times while it loads, not 100 times.
 * `itemsOf` must be a constant (defined outside the component).
 */
export function usePagedList<T, A extends ListAnswer>(
  queryKey: QueryKey,
  path: string,
  itemsOf: (answer: A) => T[],
): PagedList<T> {
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
    ...REFETCH_FIRST_PAGE,
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
