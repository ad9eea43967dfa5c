/**
 * Flipt v1 authentication wire types (`flipt.auth` protos as the REST gateway emits them).
 * Shared by the server's `/auth/v1` routes and the console.
 */
export type AuthMethod =
  | 'METHOD_NONE'
  | 'METHOD_TOKEN'
  | 'METHOD_OIDC'
  | 'METHOD_KUBERNETES'
  | 'METHOD_GITHUB'
  | 'METHOD_JWT'
  | 'METHOD_CLOUD';

export const AUTH_METHODS: readonly AuthMethod[] = [
  'METHOD_NONE',
  'METHOD_TOKEN',
  'METHOD_OIDC',
  'METHOD_KUBERNETES',
  'METHOD_GITHUB',
  'METHOD_JWT',
  'METHOD_CLOUD',
];

/**
 * Unset fields are absent, as Flipt v1.54 and later write them (v1.47 wrote `null`): `expiresAt` for a
 * token that never expires, all three timestamps for a JWT authentication.
 */
export interface Authentication {
  id: string;
  method: AuthMethod;
  expiresAt?: string;
  createdAt?: string;
  updatedAt?: string;
  metadata: Record<string, string>;
}

export interface MethodInfo {
  method: AuthMethod;
  enabled: boolean;
  sessionCompatible: boolean;
  /** GitHub's and OIDC's login addresses; absent for the other methods. */
  metadata?: Record<string, unknown>;
}

export interface ListAuthenticationMethodsResponse {
  methods: MethodInfo[];
}

export interface ListAuthenticationsResponse {
  authentications: Authentication[];
  nextPageToken: string;
}

export interface CreateTokenRequest {
  name: string;
  description?: string;
  expiresAt?: string;
  namespaceKey?: string;
  metadata?: Record<string, string>;
}

export interface CreateTokenResponse {
  clientToken: string;
  authentication: Authentication;
}

/** Metadata keys Flipt writes on authentications. */
export const AuthMetadata = {
  tokenName: 'io.flipt.auth.token.name',
  tokenDescription: 'io.flipt.auth.token.description',
  tokenNamespace: 'io.flipt.auth.token.namespace',
  oidcEmail: 'io.flipt.auth.oidc.email',
  email: 'io.flipt.auth.email',
  name: 'io.flipt.auth.name',
  picture: 'io.flipt.auth.picture',
  k8sNamespace: 'io.flipt.auth.k8s.namespace',
  k8sPodName: 'io.flipt.auth.k8s.pod.name',
  k8sPodUid: 'io.flipt.auth.k8s.pod.uid',
  k8sServiceAccountName: 'io.flipt.auth.k8s.serviceaccount.name',
  k8sServiceAccountUid: 'io.flipt.auth.k8s.serviceaccount.uid',
} as const;
