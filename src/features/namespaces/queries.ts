import { useQuery } from '@tanstack/react-query';
import type { NamespaceList } from '../../../domain/flipt/types';
import { API, request } from '../../api/client';

export const namespaceKeys = {
  all: ['namespaces'] as const,
  list: () => [...namespaceKeys.all, 'list'] as const,
};

export function useNamespaces() {
  return useQuery({
    queryKey: namespaceKeys.list(),
    queryFn: () => request<NamespaceList>('GET', `${API}/namespaces`),
  });
}
