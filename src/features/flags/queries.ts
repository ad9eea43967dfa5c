import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Flag, FlagList, FlagType, Variant } from '../../../domain/flipt/types';
import { API, request } from '../../api/client';
import { usePagedList } from '../../api/pagedList';
import { flagKeys } from './keys';

const enc = encodeURIComponent;
export const flagsPath = (namespaceKey: string) => `${API}/namespaces/${enc(namespaceKey)}/flags`;
export const flagPath = (namespaceKey: string, flagKey: string) => `${flagsPath(namespaceKey)}/${enc(flagKey)}`;

const flagsOf = (list: FlagList) => list.flags;

/** The namespace's flags, the first page at once and the rest in the background (see usePagedList). */
export function useFlags(namespaceKey: string) {
  return usePagedList(flagKeys.list(namespaceKey), flagsPath(namespaceKey), flagsOf);
}

export function useFlag(namespaceKey: string, flagKey: string) {
  return useQuery({
    queryKey: flagKeys.detail(namespaceKey, flagKey),
    queryFn: () => request<Flag>('GET', flagPath(namespaceKey, flagKey)),
  });
}

export interface FlagValues {
  key: string;
  name: string;
  description: string;
  type: FlagType;
  enabled: boolean;
}

/** A flag's own editable values, e.g. to change only its enabled state or default variant. */
export const flagValues = ({ key, name, description, type, enabled }: Flag): FlagValues => ({
  key,
  name,
  description,
  type,
  enabled,
});

export interface VariantValues {
  key: string;
  name: string;
  description: string;
  attachment: string;
}

export const variantValues = ({ key, name, description, attachment }: VariantValues): VariantValues => ({
  key,
  name,
  description,
  attachment,
});

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
  const { name, description, type, enabled } = source;
  const created = await request<Flag>('POST', flagsPath(to.namespaceKey), { key, name, description, type, enabled });
  for (const variant of source.variants) {
    await request<Variant>('POST', `${flagPath(to.namespaceKey, key)}/variants`, variantValues(variant));
  }
  return created;
}

/** Every flag mutation invalidates the namespace's flag list and the flag's own entry (with its rules and rollouts). */
export function useFlagMutations(namespaceKey: string) {
  const client = useQueryClient();
  const invalidate = (flagKey: string) =>
    Promise.all([
      client.invalidateQueries({ queryKey: flagKeys.list(namespaceKey) }),
      client.invalidateQueries({ queryKey: flagKeys.detail(namespaceKey, flagKey) }),
    ]);
  return {
    create: useMutation({
      mutationFn: (values: FlagValues) => request<Flag>('POST', flagsPath(namespaceKey), values),
      onSuccess: (flag) => invalidate(flag.key),
    }),
    update: useMutation({
      mutationFn: ({
        flagKey,
        values,
        defaultVariantId,
      }: {
        flagKey: string;
        values: FlagValues;
        defaultVariantId: string | null;
      }) => request<Flag>('PUT', flagPath(namespaceKey, flagKey), { ...values, defaultVariantId }),
      onSuccess: (_flag, { flagKey }) => invalidate(flagKey),
    }),
    remove: useMutation({
      mutationFn: (flagKey: string) => request<void>('DELETE', flagPath(namespaceKey, flagKey)),
      onSuccess: (_data, flagKey) => invalidate(flagKey),
    }),
    copy: useMutation({
      mutationFn: ({ flagKey, to }: { flagKey: string; to: { namespaceKey: string; flagKey?: string } }) =>
        copyFlag({ namespaceKey, flagKey }, to),
      onSuccess: (_flag, { to }) => client.invalidateQueries({ queryKey: flagKeys.list(to.namespaceKey) }),
    }),
    saveVariant: useMutation({
      mutationFn: ({ flagKey, id, values }: { flagKey: string; id?: string; values: VariantValues }) =>
        id
          ? request<Variant>('PUT', `${flagPath(namespaceKey, flagKey)}/variants/${enc(id)}`, values)
          : request<Variant>('POST', `${flagPath(namespaceKey, flagKey)}/variants`, values),
      onSuccess: (_variant, { flagKey }) => invalidate(flagKey),
    }),
    removeVariant: useMutation({
      mutationFn: ({ flagKey, id }: { flagKey: string; id: string }) =>
        request<void>('DELETE', `${flagPath(namespaceKey, flagKey)}/variants/${enc(id)}`),
      onSuccess: (_data, { flagKey }) => invalidate(flagKey),
    }),
  };
}
