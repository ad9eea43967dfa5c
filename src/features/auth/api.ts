// The auth feature's API: the session check (a query), sign-in's authorize address, and logout.
import { useQuery } from '@tanstack/react-query';
import { isWebUrl } from '../../lib/format';
import { AUTH, META, request } from '../../api/client';
import { sessionUser, useSessionStore, type AuthMethod, type Session } from '../../stores/session';

/**
 * The session check: if meta/info fails the session is cleared; otherwise auth/v1/self
 * decides between authenticated (with the user) and authentication not required. Both are asked at
 * once, so the console waits one round trip rather than two before it shows anything.
 */
export async function loadSession(): Promise<Session | null> {
  const { setSession } = useSessionStore.getState();
  const [info, self] = await Promise.allSettled([
    request('GET', `${META}/info`, undefined, { meta: true, passUnauthorized: true }),
    request<{ method: AuthMethod; metadata?: Record<string, string> }>('GET', `${AUTH}/self`, undefined, {
      passUnauthorized: true,
    }),
  ]);
  const session: Session | null =
    info.status === 'rejected'
      ? null
      : self.status === 'fulfilled'
        ? { required: true, authenticated: true, self: sessionUser(self.value) }
        : { required: false, authenticated: false };
  setSession(session);
  return session;
}

export function useSessionCheck() {
  return useQuery({ queryKey: ['session'], queryFn: loadSession, staleTime: Infinity });
}

/** A sign-in provider's authorize address; asking for it also sets the login state cookie. */
export const authorizeAddress = (provider: { authorizeUrl: string }) =>
  request<{ authorizeUrl: string }>('GET', provider.authorizeUrl, undefined, { passUnauthorized: true }).then(
    (answer) => answer.authorizeUrl,
  );

/**
 * Ends the session on the server, clears it, then goes to the issuer if the user has one (and it is an
 * http(s) URL: the issuer comes from token metadata, and a javascript: URL would run), else /login.
 */
export async function logout(): Promise<void> {
  const issuer = useSessionStore.getState().session?.self?.issuer;
  await request('PUT', `${AUTH}/self/expire`, {});
  useSessionStore.getState().setSession(null);
  if (issuer && isWebUrl(issuer)) window.location.href = issuer;
  else window.location.hash = '#/login';
}
