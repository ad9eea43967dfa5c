import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
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
