import { QueryClient } from '@tanstack/react-query';

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
