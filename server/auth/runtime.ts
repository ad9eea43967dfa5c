import type { AuthSettings } from './settings.js';
import type { AuthStore } from './store.js';
import type { KeySource } from './jwt.js';
import type { KubernetesVerifier } from './kubernetes.js';

/** What the auth hooks and routes share: the resolved settings, the store, the JWT keys and the Kubernetes verifier when enabled. */
export interface AuthRuntime {
  settings: AuthSettings;
  store: AuthStore;
  jwtKeys?: KeySource;
  kubernetes?: KubernetesVerifier;
}
