/**
 * The tokens feature's API, in the shape of flags/api.ts: request functions, a `queryOptions` factory
 * and one small hook per mutation. Tokens belong to the server, not to a git ref: their key has none.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  Authentication,
  CreateTokenRequest,
  CreateTokenResponse,
  ListAuthenticationsResponse,
} from '../../../domain/flipt/auth';
import { AUTH, request } from '../../api/client';
import { useSettledMutation } from '../../api/mutation';

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

export const createToken = (body: CreateTokenRequest) =>
  request<CreateTokenResponse>('POST', `${AUTH}/method/token`, body);

/** Deletes one after another and stops at the first error, which it throws. */
export async function deleteTokens(ids: string[]) {
  for (const id of ids) await request<void>('DELETE', `${AUTH}/tokens/${encodeURIComponent(id)}`);
}

export const tokensQuery = () => queryOptions({ queryKey: tokenKeys.all, queryFn: listTokens });

export const useTokens = () => useQuery(tokensQuery());

export const useCreateToken = () => useSettledMutation(tokenKeys.all, createToken);

export const useDeleteTokens = () => useSettledMutation(tokenKeys.all, deleteTokens);
