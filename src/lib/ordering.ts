import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { request } from '../api/client';

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
