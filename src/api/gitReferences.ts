import { useQuery } from '@tanstack/react-query';
import { INTERNAL, request } from './client';

/** Ensign's `GET /internal/v1/git/references` (docs/compatibility.md). */
export interface GitReferences {
  ref: string;
  branches: string[];
  tags: string[];
}

/** The git storage's branches and tags; a server without the endpoint (a real Flipt) answers an error. */
export const useGitReferences = () =>
  useQuery({
    queryKey: ['git', 'references'],
    queryFn: () => request<GitReferences>('GET', `${INTERNAL}/git/references`),
    staleTime: 30_000,
  });
