import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Rollout, RolloutList, SegmentOperator } from '../../../domain/flipt/types';
import { request } from '../../api/client';
import { useOrderMutation } from '../../lib/ordering';
import { segmentFields } from '../../lib/segments';
import { flagKeys } from '../flags';
import { flagPath } from '../flags';

const enc = encodeURIComponent;
const rolloutsPath = (namespaceKey: string, flagKey: string) => `${flagPath(namespaceKey, flagKey)}/rollouts`;

export function useRollouts(namespaceKey: string, flagKey: string) {
  return useQuery({
    queryKey: flagKeys.rollouts(namespaceKey, flagKey),
    queryFn: () => request<RolloutList>('GET', rolloutsPath(namespaceKey, flagKey)),
  });
}

/** What the rollout form edits; `kind` is chosen at creation only. */
export type RolloutValues =
  | { kind: 'threshold'; description: string; percentage: number; value: boolean }
  | { kind: 'segment'; description: string; segmentKeys: string[]; segmentOperator: SegmentOperator; value: boolean };

/** The body of a rollout create or update. */
export function rolloutBody(values: RolloutValues) {
  return values.kind === 'threshold'
    ? { description: values.description, threshold: { percentage: values.percentage, value: values.value } }
    : {
        description: values.description,
        segment: { ...segmentFields(values.segmentKeys, values.segmentOperator), value: values.value },
      };
}

export function useRolloutMutations(namespaceKey: string, flagKey: string) {
  const client = useQueryClient();
  const key = flagKeys.rollouts(namespaceKey, flagKey);
  const path = rolloutsPath(namespaceKey, flagKey);
  const invalidate = () => client.invalidateQueries({ queryKey: key });
  return {
    create: useMutation({
      mutationFn: ({ values, rank }: { values: RolloutValues; rank: number }) =>
        request<Rollout>('POST', path, { ...rolloutBody(values), rank }),
      onSettled: invalidate,
    }),
    update: useMutation({
      mutationFn: ({ id, values }: { id: string; values: RolloutValues }) =>
        request<Rollout>('PUT', `${path}/${enc(id)}`, rolloutBody(values)),
      onSettled: invalidate,
    }),
    remove: useMutation({
      mutationFn: (id: string) => request<void>('DELETE', `${path}/${enc(id)}`),
      onSettled: invalidate,
    }),
    order: useOrderMutation<Rollout>(key, `${path}/order`, 'rolloutIds'),
  };
}
