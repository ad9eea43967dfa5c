import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import { jwksKeySource, type KeySource, pemKeySource } from './jwt.js';
import { KubernetesVerifier } from './kubernetes.js';
import { type AuthSettings, resolveAuthSettings } from './settings.js';
import { AuthStore } from './store.js';

/** What the auth hooks and routes share: the resolved settings, the store, the JWT keys and the Kubernetes verifier when enabled. */
export interface AuthRuntime {
  readonly settings: AuthSettings;
  readonly store: AuthStore;
  readonly jwtKeys?: KeySource;
  readonly kubernetes?: KubernetesVerifier;
}

/** Authentication's runtime from the configuration, made before any route (the REST hooks and gRPC share it). */
export function createAuthRuntime(config: Config, database: Database, log: FastifyBaseLogger): AuthRuntime {
  const settings = resolveAuthSettings(config.authentication);
  const { jwt } = settings;
  const warn = (message: string) => log.warn(message);
  return {
    settings,
    store: new AuthStore(database),
    jwtKeys: !jwt.enabled
      ? undefined
      : jwt.jwksUrl
        ? jwksKeySource(jwt.jwksUrl, warn)
        : pemKeySource(jwt.publicKeyPem!),
    kubernetes: settings.kubernetes.enabled ? new KubernetesVerifier(settings.kubernetes, warn) : undefined,
  };
}
