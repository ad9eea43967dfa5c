import { useQuery } from '@tanstack/react-query';
import type { ListAuthenticationMethodsResponse } from '../../../domain/flipt/auth';
import { AUTH, request } from '../../api/client';

/** GET auth/v1/method: every method the server knows, enabled or not. */
export function useAuthMethods() {
  return useQuery({
    queryKey: ['auth', 'methods'],
    queryFn: () => request<ListAuthenticationMethodsResponse>('GET', `${AUTH}/method`),
  });
}
