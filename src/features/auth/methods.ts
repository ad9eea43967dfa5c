import type { MethodInfo } from '../../../domain/flipt/auth';

/** One sign-in button: an OIDC provider or GitHub, with the address that starts its login. */
export interface LoginProvider {
  name: string;
  label: string;
  authorizeUrl: string;
}

const LABELS: Record<string, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  google: 'Google',
  auth0: 'Auth0',
  okta: 'Okta',
};

const labelOf = (name: string) => LABELS[name.toLowerCase()] ?? name.charAt(0).toUpperCase() + name.slice(1);

/** The enabled session methods from GET auth/v1/method: one entry per OIDC provider, and GitHub. */
export function loginProviders(methods: MethodInfo[]): LoginProvider[] {
  const providers: LoginProvider[] = [];
  for (const info of methods) {
    if (!info.enabled || !info.sessionCompatible || !info.metadata) continue;
    if (info.method === 'METHOD_GITHUB') {
      providers.push({ name: 'github', label: 'GitHub', authorizeUrl: String(info.metadata.authorize_url) });
    }
    if (info.method === 'METHOD_OIDC') {
      const entries = Object.entries((info.metadata.providers ?? {}) as Record<string, { authorize_url: string }>);
      for (const [name, { authorize_url }] of entries)
        providers.push({ name, label: labelOf(name), authorizeUrl: authorize_url });
    }
  }
  return providers;
}
