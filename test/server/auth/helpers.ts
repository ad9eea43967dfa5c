import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { protectedAs } from '../../../server/auth/enforce.js';
import { defaultConfig, type AuthenticationFileConfig, type Config } from '../../../server/config/index.js';
import type { Dialect } from '../../../server/db/index.js';
import { createTestDatabase, type TestDatabase } from '../support.js';

export interface AuthTestApp {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The app with the given `authentication` section; `extend` may add probe routes before the app is
 * ready, so tests need not depend on routes other areas own.
 */
export async function startAuthApp(
  dialect: Dialect,
  authentication: AuthenticationFileConfig,
  extend?: (app: FastifyInstance) => void,
): Promise<AuthTestApp> {
  const database = await createTestDatabase(dialect);
  const config = defaultConfig();
  config.db.url = database.url;
  config.authentication = authentication;
  // These suites log in many times; the login limit (counted across the login routes) has its own tests.
  config.rateLimits.login = 1000;
  const app = await buildApp(config);
  app.get(PROBE, protectedAs('management'), async (request) => ({
    namespaceKey: (request.params as { namespaceKey: string }).namespaceKey,
  }));
  app.post('/evaluate/v1/probe', protectedAs('evaluation'), async () => ({ ok: true }));
  extend?.(app);
  await app.ready();
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** Probe routes in the management and evaluation mounts, owned by these tests. */
const PROBE = '/api/v1/namespaces/:namespaceKey/probe';
export const MANAGEMENT_PROBE = '/api/v1/namespaces/default/probe';

export const UNAUTHENTICATED = { code: 16, message: 'request was not authenticated', details: [] };

/** `inject` with a bearer token. */
export function asToken(app: FastifyInstance, token: string, options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
}

/** The address the OIDC tests' app is reached at, and the client the provider knows it as. */
export const OIDC_APP = 'http://ensign.test';
export const OIDC_CLIENT = { clientId: 'ensign', clientSecret: 'ensign-secret' };

/** An `authentication` section requiring login through one OIDC provider, "local", at `issuer`. */
export function oidcAuthentication(
  issuer: string,
  options: {
    scopes?: string[];
    usePkce?: boolean;
    emailMatches?: string[];
    tokenLifetime?: string;
    nonce?: string;
  } = {},
): AuthenticationFileConfig {
  return {
    required: true,
    session: { domain: 'ensign.test', token_lifetime: options.tokenLifetime },
    methods: {
      oidc: {
        enabled: true,
        email_matches: options.emailMatches,
        providers: {
          local: {
            issuer_url: issuer,
            client_id: OIDC_CLIENT.clientId,
            client_secret: OIDC_CLIENT.clientSecret,
            redirect_address: OIDC_APP,
            scopes: options.scopes,
            use_pkce: options.usePkce,
            nonce: options.nonce,
          },
        },
      },
    },
  };
}
