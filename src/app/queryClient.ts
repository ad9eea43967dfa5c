import { QueryClient } from '@tanstack/react-query';
import { useRefStore } from '../stores/ref';

/**
 * Unused data is kept 60 s; no refetch on window focus or reconnect. A page that mounts fetches its
 * data again (while showing what is cached): data a mutation invalidated, or someone else changed, is
 * never shown stale on the next page the operator opens. (With refetchOnMount off, invalidating a
 * list that was not mounted left it stale until a reload.)
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: 60_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        retry: false,
      },
    },
  });
}

/**
 * Changing the current ref clears all cached data; the queries on screen fetch again at once, so the
 * page shows the new ref's data (a plain `clear()` leaves mounted queries showing the old ref's).
 * Returns the unsubscribe function.
 */
export function clearOnRefChange(client: QueryClient): () => void {
  return useRefStore.subscribe((state, previous) => {
    if (state.ref !== previous.ref) void client.resetQueries();
  });
}
