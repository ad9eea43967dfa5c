import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Authentication,
  CreateTokenRequest,
  CreateTokenResponse,
  ListAuthenticationsResponse,
} from '../../../domain/flipt/auth';
import { AUTH, request } from '../../api/client';

export const tokenKeys = {
  all: ['tokens'] as const,
};

/** Every static token, page after page (the server pages authentications by 100 at most). */
async function listTokens(): Promise<Authentication[]> {
  const tokens: Authentication[] = [];
  let pageToken = '';
  do {
    const query = new URLSearchParams({ method: 'METHOD_TOKEN', limit: '100', ...(pageToken && { pageToken }) });
    const page = await request<ListAuthenticationsResponse>('GET', `${AUTH}/tokens?${query}`);
    tokens.push(...page.authentications);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return tokens;
}

export function useTokens() {
  return useQuery({ queryKey: tokenKeys.all, queryFn: listTokens });
}

export function useTokenMutations() {
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: tokenKeys.all });
  return {
    create: useMutation({
      mutationFn: (body: CreateTokenRequest) => request<CreateTokenResponse>('POST', `${AUTH}/method/token`, body),
      onSettled,
    }),
    /** Deletes one after another and stops at the first error, which it throws. */
    removeMany: useMutation({
      mutationFn: async (ids: string[]) => {
        for (const id of ids) await request<void>('DELETE', `${AUTH}/tokens/${encodeURIComponent(id)}`);
      },
      onSettled,
    }),
  };
}
