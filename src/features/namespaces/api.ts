/**
 * The namespaces feature's API, in the shape of flags/api.ts: request functions, query keys led by the
 * git ref, a `queryOptions` factory, and one small hook per mutation whose promise settles once the
 * namespace list is fetched again.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_NAMESPACE, type Namespace, type NamespaceList } from '../../../domain/flipt/types';
import { API, request } from '../../api/client';
import { useCurrentRef } from '../../api/currentRef';
import { useInvalidatingMutation } from '../../api/mutation';
import { useNamespaceStore } from '../../stores/namespace';

export interface NamespaceValues {
  key: string;
  name: string;
  description: string;
}

const namespacesPath = `${API}/namespaces`;
const namespacePath = (key: string) => `${namespacesPath}/${encodeURIComponent(key)}`;

export const namespaceKeys = {
  list: (ref: string) => [ref, 'namespaces'] as const,
};

export const createNamespace = (values: NamespaceValues) => request<Namespace>('POST', namespacesPath, values);

export const updateNamespace = ({ key, name, description }: NamespaceValues) =>
  request<Namespace>('PUT', namespacePath(key), { name, description });

export const deleteNamespace = (key: string) => request<void>('DELETE', namespacePath(key));

export const namespacesQuery = (ref: string) =>
  queryOptions({ queryKey: namespaceKeys.list(ref), queryFn: () => request<NamespaceList>('GET', namespacesPath) });

export const useNamespaces = () => useQuery(namespacesQuery(useCurrentRef()));

const listChanged = (ref: string) => [namespaceKeys.list(ref)];

export const useCreateNamespace = () => useInvalidatingMutation(createNamespace, listChanged);

export const useUpdateNamespace = () => useInvalidatingMutation(updateNamespace, listChanged);

/**
 * Deletes a namespace: its cached data is dropped (the keys of a namespace's flags, segments and history
 * are `[ref, kind, namespaceKey, ...]`) and, if it was the current one, the console falls back to default.
 */
export function useDeleteNamespace() {
  const client = useQueryClient();
  const ref = useCurrentRef();
  return useInvalidatingMutation(async (key: string) => {
    await deleteNamespace(key);
    client.removeQueries({ predicate: ({ queryKey }) => queryKey[0] === ref && queryKey[2] === key });
    const store = useNamespaceStore.getState();
    if (store.current === key) store.setCurrent(DEFAULT_NAMESPACE);
  }, listChanged);
}
