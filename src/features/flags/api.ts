/**
 * The flags feature's API, in the shape of every console feature's: request functions, query keys and
 * `queryOptions` factories (one definition for `useQuery`, prefetching and `ensureQueryData`), and one
 * small hook per mutation, whose promise settles once the queries it invalidates are fetched again.
 * Every key starts with the git ref the data was read at. The flag tabs' own API modules (rules/api.ts,
 * rollouts/api.ts, analytics/api.ts) have the same shape and load with their tab.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Flag, FlagList, Variant } from '../../../domain/flipt/types';
import { API, request } from '../../api/client';
import { useInvalidatingMutation } from '../../api/mutation';
import { usePagedList } from '../../api/pagedList';
import { useCurrentRef } from '../../api/currentRef';
import type { FlagFormValues, VariantValues } from './schemas';

const enc = encodeURIComponent;
const flagsPath = (namespaceKey: string) => `${API}/namespaces/${enc(namespaceKey)}/flags`;
export const flagPath = (namespaceKey: string, flagKey: string) => `${flagsPath(namespaceKey)}/${enc(flagKey)}`;
const variantsPath = (namespaceKey: string, flagKey: string) => `${flagPath(namespaceKey, flagKey)}/variants`;

export const flagKeys = {
  namespace: (ref: string, namespaceKey: string) => [ref, 'flags', namespaceKey] as const,
  list: (ref: string, namespaceKey: string) => [...flagKeys.namespace(ref, namespaceKey), 'list'] as const,
  detail: (ref: string, namespaceKey: string, flagKey: string) =>
    [...flagKeys.namespace(ref, namespaceKey), 'detail', flagKey] as const,
  /** Rules and rollouts of a flag live under its detail key, so deleting the flag invalidates them. */
  rules: (ref: string, namespaceKey: string, flagKey: string) =>
    [...flagKeys.detail(ref, namespaceKey, flagKey), 'rules'] as const,
  rollouts: (ref: string, namespaceKey: string, flagKey: string) =>
    [...flagKeys.detail(ref, namespaceKey, flagKey), 'rollouts'] as const,
  /** Evaluation counts are not the flag's own data: a change of the flag leaves them cached. */
  analytics: (ref: string, namespaceKey: string, flagKey: string) =>
    [...flagKeys.namespace(ref, namespaceKey), 'analytics', flagKey] as const,
  series: (ref: string, namespaceKey: string, flagKey: string, minutes: number) =>
    [...flagKeys.analytics(ref, namespaceKey, flagKey), minutes] as const,
};

/**
 * A flag's own values, as create and update send them. `metadata` replaces the flag's (`{}` clears it);
 * without it an update keeps the flag's metadata, as Flipt's does.
 */
export type FlagValues = Omit<FlagFormValues, 'defaultVariantId' | 'metadata'> & {
  metadata?: Record<string, unknown>;
};

/** A flag's own editable values, e.g. to change only its enabled state or default variant. */
export const flagValues = ({ key, name, description, type, enabled }: Flag): FlagValues => ({
  key,
  name,
  description,
  type,
  enabled,
});

export const variantValues = ({ key, name, description, attachment }: VariantValues): VariantValues => ({
  key,
  name,
  description,
  attachment,
});

export interface FlagUpdate {
  flagKey: string;
  values: FlagValues;
  defaultVariantId: string | null;
}

export const createFlag = (namespaceKey: string, values: FlagValues) =>
  request<Flag>('POST', flagsPath(namespaceKey), values);

export const updateFlag = (namespaceKey: string, { flagKey, values, defaultVariantId }: FlagUpdate) =>
  request<Flag>('PUT', flagPath(namespaceKey, flagKey), { ...values, defaultVariantId });

export const deleteFlag = (namespaceKey: string, flagKey: string) =>
  request<void>('DELETE', flagPath(namespaceKey, flagKey));

/**
 * Copies a flag: GET the source, replace its key if a new one is given, POST it to the
 * target namespace, then POST each variant. Stops at the first failing step and throws its error.
 */
export async function copyFlag(
  from: { namespaceKey: string; flagKey: string },
  to: { namespaceKey: string; flagKey?: string },
): Promise<Flag> {
  const source = await request<Flag>('GET', flagPath(from.namespaceKey, from.flagKey));
  const key = to.flagKey || source.key;
  const { name, description, type, enabled, metadata } = source;
  const created = await request<Flag>('POST', flagsPath(to.namespaceKey), {
    key,
    name,
    description,
    type,
    enabled,
    metadata,
  });
  for (const variant of source.variants) {
    await request<Variant>('POST', variantsPath(to.namespaceKey, key), variantValues(variant));
  }
  return created;
}

/** Creates a variant (no `id`) or updates one. */
export const saveVariant = (
  namespaceKey: string,
  { flagKey, id, values }: { flagKey: string; id?: string; values: VariantValues },
) =>
  id
    ? request<Variant>('PUT', `${variantsPath(namespaceKey, flagKey)}/${enc(id)}`, values)
    : request<Variant>('POST', variantsPath(namespaceKey, flagKey), values);

export const deleteVariant = (namespaceKey: string, { flagKey, id }: { flagKey: string; id: string }) =>
  request<void>('DELETE', `${variantsPath(namespaceKey, flagKey)}/${enc(id)}`);

const flagsOf = (list: FlagList) => list.flags;

/** The namespace's flags, the first page at once and the rest in the background (see usePagedList). */
export function useFlags(namespaceKey: string) {
  return usePagedList(flagKeys.list(useCurrentRef(), namespaceKey), flagsPath(namespaceKey), flagsOf);
}

export const flagQuery = (ref: string, namespaceKey: string, flagKey: string) =>
  queryOptions({
    queryKey: flagKeys.detail(ref, namespaceKey, flagKey),
    queryFn: () => request<Flag>('GET', flagPath(namespaceKey, flagKey)),
  });

export const useFlag = (namespaceKey: string, flagKey: string) =>
  useQuery(flagQuery(useCurrentRef(), namespaceKey, flagKey));

/** A mutation of one flag: on success the namespace's flag list and the flag's entry (with its rules and rollouts) are refetched. */
function useFlagMutation<I, O>(
  namespaceKey: string,
  mutationFn: (input: I) => Promise<O>,
  changedFlagKey: (input: I, output: O) => string,
) {
  return useInvalidatingMutation(mutationFn, (ref, input, output: O) => [
    flagKeys.list(ref, namespaceKey),
    flagKeys.detail(ref, namespaceKey, changedFlagKey(input, output)),
  ]);
}

export const useCreateFlag = (namespaceKey: string) =>
  useFlagMutation(
    namespaceKey,
    (values: FlagValues) => createFlag(namespaceKey, values),
    (_values, flag) => flag.key,
  );

export const useUpdateFlag = (namespaceKey: string) =>
  useFlagMutation(
    namespaceKey,
    (update: FlagUpdate) => updateFlag(namespaceKey, update),
    (update) => update.flagKey,
  );

export const useDeleteFlag = (namespaceKey: string) =>
  useFlagMutation(
    namespaceKey,
    (flagKey: string) => deleteFlag(namespaceKey, flagKey),
    (flagKey) => flagKey,
  );

export const useSaveVariant = (namespaceKey: string) =>
  useFlagMutation(
    namespaceKey,
    (input: Parameters<typeof saveVariant>[1]) => saveVariant(namespaceKey, input),
    (input) => input.flagKey,
  );

export const useDeleteVariant = (namespaceKey: string) =>
  useFlagMutation(
    namespaceKey,
    (input: Parameters<typeof deleteVariant>[1]) => deleteVariant(namespaceKey, input),
    (input) => input.flagKey,
  );

/** Copies a flag of the namespace to another; the target namespace's flag list is refetched. */
export const useCopyFlag = (namespaceKey: string) =>
  useInvalidatingMutation(
    ({ flagKey, to }: { flagKey: string; to: { namespaceKey: string; flagKey?: string } }) =>
      copyFlag({ namespaceKey, flagKey }, to),
    (ref, { to }) => [flagKeys.list(ref, to.namespaceKey)],
  );
