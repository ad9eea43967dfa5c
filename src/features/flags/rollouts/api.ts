/** A flag's rollouts (the Rollouts tab of a boolean flag), in the shape of flags/api.ts. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Rollout, RolloutList, SegmentOperator } from '../../../../domain/flipt/types';
import { request } from '../../../api/client';
import { useOrderMutation, useSettledMutation } from '../../../api/mutation';
import { segmentFields } from '../../../lib/segments';
import { useCurrentRef } from '../../../api/currentRef';
import { flagKeys, flagPath } from '../api';

const enc = encodeURIComponent;
const rolloutsPath = (namespaceKey: string, flagKey: string) => `${flagPath(namespaceKey, flagKey)}/rollouts`;

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

export const createRollout = (
  namespaceKey: string,
  flagKey: string,
  { values, rank }: { values: RolloutValues; rank: number },
) => request<Rollout>('POST', rolloutsPath(namespaceKey, flagKey), { ...rolloutBody(values), rank });

export const updateRollout = (
  namespaceKey: string,
  flagKey: string,
  { id, values }: { id: string; values: RolloutValues },
) => request<Rollout>('PUT', `${rolloutsPath(namespaceKey, flagKey)}/${enc(id)}`, rolloutBody(values));

export const deleteRollout = (namespaceKey: string, flagKey: string, id: string) =>
  request<void>('DELETE', `${rolloutsPath(namespaceKey, flagKey)}/${enc(id)}`);

export const rolloutsQuery = (ref: string, namespaceKey: string, flagKey: string) =>
  queryOptions({
    queryKey: flagKeys.rollouts(ref, namespaceKey, flagKey),
    queryFn: () => request<RolloutList>('GET', rolloutsPath(namespaceKey, flagKey)),
  });

export const useRollouts = (namespaceKey: string, flagKey: string) =>
  useQuery(rolloutsQuery(useCurrentRef(), namespaceKey, flagKey));

export const useCreateRollout = (namespaceKey: string, flagKey: string) =>
  useSettledMutation(
    flagKeys.rollouts(useCurrentRef(), namespaceKey, flagKey),
    (input: { values: RolloutValues; rank: number }) => createRollout(namespaceKey, flagKey, input),
  );

export const useUpdateRollout = (namespaceKey: string, flagKey: string) =>
  useSettledMutation(
    flagKeys.rollouts(useCurrentRef(), namespaceKey, flagKey),
    (input: { id: string; values: RolloutValues }) => updateRollout(namespaceKey, flagKey, input),
  );

export const useDeleteRollout = (namespaceKey: string, flagKey: string) =>
  useSettledMutation(flagKeys.rollouts(useCurrentRef(), namespaceKey, flagKey), (id: string) =>
    deleteRollout(namespaceKey, flagKey, id),
  );

export const useOrderRollouts = (namespaceKey: string, flagKey: string) =>
  useOrderMutation<Rollout>(
    flagKeys.rollouts(useCurrentRef(), namespaceKey, flagKey),
    `${rolloutsPath(namespaceKey, flagKey)}/order`,
    'rolloutIds',
  );
