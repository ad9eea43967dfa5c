// The console's mutation plumbing: each feature's api.ts builds its one-hook-per-mutation on these.
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from './client';
import { useCurrentRef } from './currentRef';

/**
 * A mutation whose promise settles once the queries it changed are fetched again: `invalidated` names
 * their keys, at the git ref the console reads at, from what was sent and answered.
 */
export function useInvalidatingMutation<I, O>(
  mutationFn: (input: I) => Promise<O>,
  invalidated: (ref: string, input: I, output: O) => QueryKey[],
) {
  const client = useQueryClient();
  const ref = useCurrentRef();
  return useMutation({
    mutationFn,
    onSuccess: (output, input) =>
      Promise.all(invalidated(ref, input, output).map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

/**
 * A mutation made of several requests, of which the first may have gone through when a later one
 * fails: what it may have changed (`queryKey`) is fetched again whether it succeeded or not.
 */
export function useSettledMutation<I, O>(queryKey: QueryKey, mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey }) });
}

/** Rule and rollout lists: Flipt names the items of both `rules`. */
interface RankedList<T> {
  rules: T[];
}

/**
 * Reordering of rules or rollouts (PUT .../order with the ids in their new order), optimistic: the
 * cached list takes the new order at once and goes back to the old one if the server refuses.
 */
export function useOrderMutation<T extends { id: string }>(
  queryKey: QueryKey,
  orderPath: string,
  idsField: 'ruleIds' | 'rolloutIds',
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (items: T[]) => request<void>('PUT', orderPath, { [idsField]: items.map((item) => item.id) }),
    onMutate: async (items) => {
      await client.cancelQueries({ queryKey });
      const previous = client.getQueryData<RankedList<T>>(queryKey);
      if (previous) client.setQueryData<RankedList<T>>(queryKey, { ...previous, rules: items });
      return { previous };
    },
    onError: (_error, _items, context) => {
      if (context?.previous) client.setQueryData(queryKey, context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey }),
  });
}
