import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_NAMESPACE, type Namespace } from '../../../domain/flipt/types';
import { API, request } from '../../api/client';
import { useCurrentRef } from '../../api/currentRef';
import { useNamespaceStore } from '../../stores/namespace';
import { segmentKeys } from '../segments';
import { namespaceKeys } from './queries';

export interface NamespaceValues {
  key: string;
  name: string;
  description: string;
}

/** Namespace mutations refresh the namespace list; deleting one also drops its segments and, if current, falls back to default. */
export function useNamespaceMutations() {
  const client = useQueryClient();
  const ref = useCurrentRef();
  const onSuccess = () => client.invalidateQueries({ queryKey: namespaceKeys.all });
  return {
    create: useMutation({
      mutationFn: (values: NamespaceValues) => request<Namespace>('POST', `${API}/namespaces`, values),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ key, name, description }: NamespaceValues) =>
        request<Namespace>('PUT', `${API}/namespaces/${encodeURIComponent(key)}`, { name, description }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (key: string) => request<void>('DELETE', `${API}/namespaces/${encodeURIComponent(key)}`),
      onSuccess: (_data, key) => {
        client.removeQueries({ queryKey: segmentKeys.namespace(ref, key) });
        const store = useNamespaceStore.getState();
        if (store.current === key) store.setCurrent(DEFAULT_NAMESPACE);
        return onSuccess();
      },
    }),
  };
}
