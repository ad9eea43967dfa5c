import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type AuthMethod = 'METHOD_GITHUB' | 'METHOD_OIDC' | 'METHOD_JWT' | string;

/** The signed-in user, derived from GET auth/v1/self. */
export interface SessionUser {
  authMethod: AuthMethod;
  name: string;
  imgURL?: string;
  login?: string;
  issuer?: string;
}

export interface Session {
  required: boolean;
  authenticated: boolean;
  self?: SessionUser;
}

interface SessionState {
  session: Session | null;
  setSession(session: Session | null): void;
}

export const useSessionStore = create<SessionState>()(
  persist((set) => ({ session: null, setSession: (session) => set({ session }) }), { name: 'session' }),
);

export function clearStoredSession(): void {
  useSessionStore.getState().setSession(null);
}

export function storedIssuer(): string | undefined {
  return useSessionStore.getState().session?.self?.issuer;
}

interface SelfResponse {
  method: AuthMethod;
  metadata?: Record<string, string> | null;
}

const METADATA_PREFIX: Record<string, string> = {
  METHOD_GITHUB: 'io.flipt.auth.github',
  METHOD_OIDC: 'io.flipt.auth.oidc',
  METHOD_JWT: 'io.flipt.auth.jwt',
};

/** Maps an Authentication to the user the shell shows; the name falls back to 'User'. */
export function sessionUser(self: SelfResponse): SessionUser {
  const metadata = self.metadata ?? {};
  const prefix = METADATA_PREFIX[self.method] ?? 'io.flipt.auth';
  const field = (name: string): string | undefined =>
    metadata[`${prefix}.${name}`] ?? metadata[`io.flipt.auth.${name}`];
  return {
    authMethod: self.method,
    name: field('name') || 'User',
    imgURL: field('picture'),
    login: field('preferred_username'),
    issuer: field('issuer'),
  };
}
