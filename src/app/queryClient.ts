import { QueryClient } from '@tanstack/react-query';
import { useRefStore } from '../stores/ref';

/** Unused data is kept 60 s; no refetch on focus, reconnect or mount (spec §9). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: 60_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        refetchOnMount: false,
        retry: false,
      },
    },
  });
}

/** Changing the current ref clears all cached data (spec §4). Returns the unsubscribe function. */
export function clearOnRefChange(client: QueryClient): () => void {
  return useRefStore.subscribe((state, previous) => {
    if (state.ref !== previous.ref) client.clear();
  });
}
