import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createRemoteJWKSet, customFetch } from 'jose';
import { AuthMetadata } from '../../domain/flipt/auth.js';
import { http, https } from '../node-http.js';
import { JWKS_COOLDOWN_MS, JWKS_MAX_AGE_MS, JwtError, type KeySource, verifyJwt } from './jwt.js';
import type { KubernetesSettings } from './settings.js';

/**
 * The Kubernetes method: a workload in the cluster trades its service-account token for a client token. The
 * cluster is the OIDC issuer: its discovery document (at the configured discovery URL, which Kubernetes serves
 * under an issuer name of its own) names the issuer and the signing keys. Both are fetched over TLS trusting only
 * the cluster's CA, with Ensign's own service-account token as the credential, read from disk on every fetch
 * because Kubernetes rotates it.
 */

/** What a verified service-account token says of the workload that holds it. */
export interface ServiceAccountIdentity {
  /** Seconds since the epoch: the client token lives as long as the service-account token. */
  expiresAt: number;
  metadata: Record<string, string>;
}

export class KubernetesVerifier {
  private discovered?: Promise<{ issuer: string; keys: KeySource }>;

  constructor(
    private readonly settings: KubernetesSettings,
    private readonly warn: (message: string) => void,
  ) {}

  /** The workload's identity, or a JwtError saying why the token is refused. */
  async verify(token: string): Promise<ServiceAccountIdentity> {
    const { issuer, keys } = await this.discover();
    const audiences = this.settings.audiences.length > 0 ? this.settings.audiences : defaultAudiences(issuer);
    const claims = await verifyJwt(token, keys, { issuer, audiences });
    if (typeof claims.exp !== 'number') throw new JwtError('token has no expiry');
    const identity = (claims['kubernetes.io'] ?? {}) as {
      namespace?: unknown;
      pod?: { name?: unknown; uid?: unknown };
      serviceaccount?: { name?: unknown; uid?: unknown };
    };
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      expiresAt: claims.exp,
      metadata: {
        [AuthMetadata.k8sNamespace]: text(identity.namespace),
        [AuthMetadata.k8sPodName]: text(identity.pod?.name),
        [AuthMetadata.k8sPodUid]: text(identity.pod?.uid),
        [AuthMetadata.k8sServiceAccountName]: text(identity.serviceaccount?.name),
        [AuthMetadata.k8sServiceAccountUid]: text(identity.serviceaccount?.uid),
      },
    };
  }

  /** The issuer and its keys, fetched once; a failed discovery is tried again on the next token. */
  private discover(): Promise<{ issuer: string; keys: KeySource }> {
    this.discovered ??= this.fetchDiscovery().catch((error: unknown) => {
      this.discovered = undefined;
      throw error;
    });
    return this.discovered;
  }

  private async fetchDiscovery(): Promise<{ issuer: string; keys: KeySource }> {
    const url = `${this.settings.discoveryUrl.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await this.fetch(url, {});
    if (!response.ok) throw this.unavailable(`${url} answered HTTP ${response.status}`);
    const document = (await response.json().catch(() => undefined)) as { issuer?: unknown; jwks_uri?: unknown };
    if (typeof document?.issuer !== 'string' || typeof document.jwks_uri !== 'string') {
      throw this.unavailable(`${url} is not an OIDC discovery document (issuer and jwks_uri)`);
    }
    const keys = createRemoteJWKSet(new URL(document.jwks_uri), {
      cacheMaxAge: JWKS_MAX_AGE_MS,
      cooldownDuration: JWKS_COOLDOWN_MS,
      timeoutDuration: 10_000,
      [customFetch]: (resource, options) => this.fetch(String(resource), options),
    });
    return { issuer: document.issuer, keys };
  }

  private unavailable(reason: string): JwtError {
    this.warn(`Kubernetes authentication: ${reason}`);
    return new JwtError(`cannot reach the cluster's issuer: ${reason}`);
  }

  /** A GET trusting only the cluster's CA, with the service-account token as the credential; at most 1 MB back. */
  private fetch(url: string, options: { signal?: AbortSignal | null }): Promise<Response> {
    let token: string;
    try {
      token = readFileSync(this.settings.serviceAccountTokenPath, 'utf8').trim();
    } catch (error) {
      return Promise.reject(
        this.unavailable(
          `cannot read the service account token at ${this.settings.serviceAccountTokenPath}: ${(error as NodeJS.ErrnoException).code}`,
        ),
      );
    }
    const secure = url.startsWith('https:');
    const send = secure ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          timeout: 10_000,
          signal: options.signal ?? undefined,
          ...(secure && { ca: this.settings.caPem }),
        },
        (response) => readLimited(response).then(resolve, reject),
      );
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', (error) => reject(this.unavailable(`${url}: ${error.message}`)));
      request.end();
    });
  }
}

const MAX_RESPONSE_BYTES = 1_000_000;

function readLimited(response: IncomingMessage): Promise<Response> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) response.destroy(new Error('response larger than 1 MB'));
      else chunks.push(chunk);
    });
    response.on('error', reject);
    response.on('end', () =>
      resolve(
        new Response(Buffer.concat(chunks), {
          status: response.statusCode ?? 502,
          headers: { 'content-type': String(response.headers['content-type'] ?? 'application/json') },
        }),
      ),
    );
  });
}

/**
 * The audiences a pod's own token is issued for when `audiences` is not set: the API server's, which is its issuer
 * on most clusters and `https://kubernetes.default.svc` on some managed ones. A token minted for another
 * audience (a secrets store, say) is refused, so it cannot be replayed here.
 */
function defaultAudiences(issuer: string): string[] {
  return [issuer, 'https://kubernetes.default.svc', 'https://kubernetes.default.svc.cluster.local'];
}
