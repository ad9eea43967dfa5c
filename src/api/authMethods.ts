import { useQuery } from '@tanstack/react-query';
import type { AuthMethod, ListAuthenticationMethodsResponse, MethodInfo } from '../../domain/flipt/auth';
import { AUTH, request } from './client';

/** GET auth/v1/method: every method the server knows, enabled or not. */
export function useAuthMethods() {
  return useQuery({
    queryKey: ['auth', 'methods'],
    queryFn: () => request<ListAuthenticationMethodsResponse>('GET', `${AUTH}/method`),
  });
}

/** Whether the server has `method` enabled (static tokens are METHOD_TOKEN). */
export function methodEnabled(methods: MethodInfo[], method: AuthMethod): boolean {
  return methods.some((info) => info.method === method && info.enabled);
}
