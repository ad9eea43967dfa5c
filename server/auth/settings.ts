import { readFileSync } from 'node:fs';
import { ConfigError, parseDurationMs, type AuthenticationFileConfig, type Config } from '../config/index.js';

/** The `authentication` section resolved with Flipt v1's defaults. */
export interface AuthSettings {
  required: boolean;
  exclude: { management: boolean; evaluation: boolean; ofrep: boolean };
  session: {
    /** The cookie domain without scheme or port; undefined for host-only cookies (localhost, IP addresses). */
    cookieDomain?: string;
    secure: boolean;
    tokenLifetimeMs: number;
    stateLifetimeMs: number;
    csrfKey?: string;
    /** Origins (`scheme://host[:port]`, compared as written) whose cookie-authenticated writes pass the CSRF check. */
    csrfTrustedOrigins: string[];
  };
  token: { enabled: boolean; bootstrap: { token?: string; expirationMs?: number } };
  oidc: { enabled: boolean; providers: Record<string, OidcProviderSettings>; emailMatches: RegExp[] };
  github: GithubSettings;
  jwt: JwtSettings;
  kubernetes: KubernetesSettings;
  /** Expired authentications of these methods are deleted once `graceMs` past their expiry, every `intervalMs`. */
  cleanup: CleanupSettings[];
}

export interface CleanupSettings {
  method: 'METHOD_TOKEN' | 'METHOD_OIDC' | 'METHOD_GITHUB' | 'METHOD_KUBERNETES';
  intervalMs: number;
  graceMs: number;
}

export interface OidcProviderSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  redirectAddress: string;
  scopes: string[];
  usePkce: boolean;
  /** The nonce every login sends and the ID token must carry; undefined: a fresh random one per login. */
  nonce?: string;
}

export interface GithubSettings {
  enabled: boolean;
  clientId: string;
  clientSecret: string;
  redirectAddress: string;
  scopes: string[];
  serverUrl: string;
  apiUrl: string;
  allowedOrganizations: string[];
  /** Per allowed organization, the teams (slugs) whose members alone it admits. */
  allowedTeams: Record<string, string[]>;
}

export interface JwtSettings {
  enabled: boolean;
  jwksUrl?: string;
  /** PEM text of the public key file, read at start-up. */
  publicKeyPem?: string;
  issuer?: string;
  subject?: string;
  audiences: string[];
}

export interface KubernetesSettings {
  enabled: boolean;
  /** Where the cluster serves its OIDC discovery document. */
  discoveryUrl: string;
  /** PEM text of the cluster's CA certificate, read at start-up: the only authority trusted on that connection. */
  caPem?: string;
  /** Ensign's own service-account token, the credential for the discovery and key requests. */
  serviceAccountTokenPath: string;
  /** The audiences a token must name one of; empty for the API server's own (server/auth/kubernetes.ts). */
  audiences: string[];
}

const DAY_MS = 24 * 3_600_000;

type Methods = NonNullable<AuthenticationFileConfig['methods']>;

const key = (path: string) => `authentication.${path}`;
const duration = (value: string | number | undefined, path: string, fallback: number) =>
  value === undefined ? fallback : parseDurationMs(value, key(path));

/** Resolves and checks the section; throws a ConfigError naming the key at fault. */
export function resolveAuthSettings(file: AuthenticationFileConfig): AuthSettings {
  const methods = file.methods ?? {};
  const session = file.session ?? {};
  if ((methods.oidc?.enabled || methods.github?.enabled) && !session.domain) {
    throw new ConfigError(`${key('session.domain')} is required when a session method (oidc, github) is enabled`);
  }
  return {
    required: file.required ?? false,
    exclude: {
      management: file.exclude?.management ?? false,
      evaluation: file.exclude?.evaluation ?? false,
      ofrep: file.exclude?.ofrep ?? false,
    },
    session: {
      cookieDomain: cookieDomain(session.domain),
      secure: session.secure ?? false,
      tokenLifetimeMs: duration(session.token_lifetime, 'session.token_lifetime', DAY_MS),
      stateLifetimeMs: duration(session.state_lifetime, 'session.state_lifetime', 10 * 60_000),
      csrfKey: session.csrf?.key || undefined,
      csrfTrustedOrigins: (session.csrf?.trusted_origins ?? []).map((origin, index) =>
        trustedOrigin(origin, key(`session.csrf.trusted_origins[${index}]`)),
      ),
    },
    token: {
      enabled: methods.token?.enabled ?? false,
      bootstrap: {
        token: methods.token?.bootstrap?.token || undefined,
        expirationMs:
          methods.token?.bootstrap?.expiration === undefined
            ? undefined
            : parseDurationMs(methods.token.bootstrap.expiration, key('methods.token.bootstrap.expiration')),
      },
    },
    oidc: oidcSettings(methods.oidc ?? {}),
    github: githubSettings(methods.github ?? {}),
    jwt: jwtSettings(methods.jwt ?? {}),
    kubernetes: kubernetesSettings(methods.kubernetes ?? {}),
    cleanup: cleanupSchedules(methods),
  };
}

function oidcSettings(oidc: NonNullable<Methods['oidc']>): AuthSettings['oidc'] {
  const providers: Record<string, OidcProviderSettings> = {};
  for (const [name, provider] of Object.entries(oidc.providers ?? {})) {
    const need = (value: string | undefined, field: string) => {
      if (oidc.enabled && !value)
        throw new ConfigError(`${key(`methods.oidc.providers.${name}.${field}`)} is required`);
      return value ?? '';
    };
    providers[name] = {
      issuerUrl: need(provider.issuer_url, 'issuer_url').replace(/\/$/, ''),
      clientId: need(provider.client_id, 'client_id'),
      clientSecret: need(provider.client_secret, 'client_secret'),
      redirectAddress: need(provider.redirect_address, 'redirect_address').replace(/\/$/, ''),
      scopes: provider.scopes ?? [],
      usePkce: provider.use_pkce ?? false,
      nonce: provider.nonce || undefined,
    };
  }
  return {
    enabled: oidc.enabled ?? false,
    providers,
    emailMatches: (oidc.email_matches ?? []).map((pattern, index) => {
      try {
        return new RegExp(pattern);
      } catch {
        throw new ConfigError(`${key(`methods.oidc.email_matches.${index}`)} is not a valid regular expression`);
      }
    }),
  };
}

function githubSettings(github: NonNullable<Methods['github']>): GithubSettings {
  if (github.enabled) {
    for (const field of ['client_id', 'client_secret', 'redirect_address'] as const) {
      if (!github[field]) throw new ConfigError(`${key(`methods.github.${field}`)} is required`);
    }
  }
  for (const org of Object.keys(github.allowed_teams ?? {})) {
    if (!github.allowed_organizations?.includes(org)) {
      throw new ConfigError(
        `${key(`methods.github.allowed_teams.${org}`)}: the organization must also be in allowed_organizations`,
      );
    }
  }
  return {
    enabled: github.enabled ?? false,
    clientId: github.client_id ?? '',
    clientSecret: github.client_secret ?? '',
    redirectAddress: (github.redirect_address ?? '').replace(/\/$/, ''),
    scopes: github.scopes ?? [],
    serverUrl: (github.server_url ?? 'https://github.com').replace(/\/$/, ''),
    apiUrl: (github.api_url ?? 'https://api.github.com').replace(/\/$/, ''),
    allowedOrganizations: github.allowed_organizations ?? [],
    allowedTeams: github.allowed_teams ?? {},
  };
}

function jwtSettings(jwt: NonNullable<Methods['jwt']>): JwtSettings {
  if (jwt.enabled && !jwt.jwks_url && !jwt.public_key_file) {
    throw new ConfigError(`${key('methods.jwt')} needs one of jwks_url or public_key_file`);
  }
  if (jwt.jwks_url && jwt.public_key_file) {
    throw new ConfigError(`${key('methods.jwt')}: set only one of jwks_url and public_key_file`);
  }
  return {
    enabled: jwt.enabled ?? false,
    jwksUrl: jwt.jwks_url,
    publicKeyPem:
      jwt.enabled && jwt.public_key_file
        ? readKeyFile(jwt.public_key_file, key('methods.jwt.public_key_file'))
        : undefined,
    issuer: jwt.validate_claims?.issuer,
    subject: jwt.validate_claims?.subject,
    audiences: jwt.validate_claims?.audiences ?? [],
  };
}

function kubernetesSettings(kubernetes: NonNullable<Methods['kubernetes']>): KubernetesSettings {
  const caPath = kubernetes.ca_path ?? '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt';
  return {
    enabled: kubernetes.enabled ?? false,
    discoveryUrl: kubernetes.discovery_url ?? 'https://kubernetes.default.svc.cluster.local',
    caPem: kubernetes.enabled ? readKeyFile(caPath, key('methods.kubernetes.ca_path')) : undefined,
    serviceAccountTokenPath:
      kubernetes.service_account_token_path ?? '/var/run/secrets/kubernetes.io/serviceaccount/token',
    audiences: kubernetes.audiences ?? [],
  };
}

/** As in Flipt, the session methods clean up by default (hourly, 30 min grace); tokens only when configured. */
function cleanupSchedules(methods: Methods): CleanupSettings[] {
  const schedules = [
    ['METHOD_TOKEN', 'token', methods.token, false],
    ['METHOD_OIDC', 'oidc', methods.oidc, true],
    ['METHOD_GITHUB', 'github', methods.github, true],
    ['METHOD_KUBERNETES', 'kubernetes', methods.kubernetes, true],
  ] as const;
  return schedules
    .filter(([, , section, byDefault]) => section?.enabled && (section.cleanup || byDefault))
    .map(([method, name, section]) => ({
      method,
      intervalMs: duration(section?.cleanup?.interval, `methods.${name}.cleanup.interval`, 3_600_000),
      graceMs: duration(section?.cleanup?.grace_period, `methods.${name}.cleanup.grace_period`, 30 * 60_000),
    }));
}

function readKeyFile(path: string, configKey: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${configKey}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/**
 * Flipt's session domain may be written with a scheme or port; cookies want a bare host. Browsers
 * refuse `Domain=localhost` and IP addresses, so those become host-only cookies.
 */
function cookieDomain(domain: string | undefined): string | undefined {
  if (!domain) return undefined;
  const host = domain
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\/.*$/, '')
    .replace(/:\d+$/, '');
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':')) return undefined;
  return host;
}

/**
 * A trusted origin as Go's `CrossOriginProtection.AddTrustedOrigin` (Flipt v1.59.3 and later) takes it:
 * a scheme and a host, no path, query or fragment; it is then compared with `Origin` as written. Flipt
 * logs a bad one and goes on without it; Ensign refuses to start, naming it.
 */
function trustedOrigin(origin: string, name: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]+)$/.exec(origin);
  if (!match) {
    throw new ConfigError(
      `${name}: "${origin}" is not an origin: write a scheme and a host, such as https://flags.example.com`,
    );
  }
  return origin;
}

/** Whether authentication installs hooks that every guarded request, evaluations included, must pass. */
export function authenticationHooksInstalled(config: Config): boolean {
  const settings = resolveAuthSettings(config.authentication);
  return settings.required || Boolean(settings.session.csrfKey);
}
