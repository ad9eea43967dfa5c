import type { FastifyInstance } from 'fastify';
import { AuthMetadata } from '../../domain/flipt/auth.js';
import { timestampIn } from './store.js';
import type { AuthRuntime } from './runtime.js';
import {
  enforceAuthentication,
  enforceNamespaceScope,
  protectionOf,
  protectRoutes,
  requireProtection,
} from './enforce.js';
import { authRoutes } from './routes.js';
import { CrossOriginProtection } from './csrf.js';
import { sessionRoutes } from './session.js';

const BOOTSTRAP_METADATA = {
  [AuthMetadata.tokenName]: 'initial_bootstrap_token',
  [AuthMetadata.tokenDescription]: 'Initial token created when bootstrapping authentication',
};

/**
 * Installs authentication on the root instance, before any route is registered so its hooks guard
 * every route: CSRF, enforcement of `authentication.required`, namespace-scoped tokens, and the
 * `/auth/v1` routes. Needs @fastify/cookie registered first.
 */
export async function installAuth(app: FastifyInstance, runtime: AuthRuntime): Promise<void> {
  const { settings } = runtime;
  if (settings.token.enabled) await bootstrapToken(app, runtime);
  scheduleCleanup(app, runtime);

  app.addHook('onRoute', requireProtection);
  app.decorateRequest('authentication', undefined);
  if (settings.session.csrfKey) {
    const protection = new CrossOriginProtection(settings.session.csrfTrustedOrigins);
    // Flipt's API is guarded, as in Flipt; the survey APIs (public) are called from other sites by design.
    app.addHook('onRequest', async (request, reply) => {
      if (protectionOf(request) === 'public') return;
      const refusal = protection.refusal(request);
      if (refusal) return reply.code(403).type('text/plain; charset=utf-8').send(`${refusal}\n`);
    });
  }
  // With authentication off nothing is checked, so the evaluation path carries no hook at all.
  if (settings.required) {
    app.addHook('onRequest', (request, reply) => enforceAuthentication(runtime, request, reply));
    app.addHook('preHandler', enforceNamespaceScope);
  }

  await app.register(async (scope) => {
    protectRoutes(scope, 'always');
    await authRoutes(scope, runtime);
    await sessionRoutes(scope, runtime);
  });
}

/**
 * Flipt's bootstrap: when no static token exists yet, create one (the configured token, if any) and
 * print it, so a fresh install with `required: true` can be reached at all.
 */
async function bootstrapToken(app: FastifyInstance, runtime: AuthRuntime): Promise<void> {
  const existing = await runtime.store.list({ method: 'METHOD_TOKEN', limit: 1, offset: 0 });
  if (existing.authentications.length > 0) return;
  const { token, expirationMs } = runtime.settings.token.bootstrap;
  const { clientToken } = await runtime.store.create({
    method: 'METHOD_TOKEN',
    metadata: BOOTSTRAP_METADATA,
    clientToken: token,
    expiresAt: expirationMs === undefined ? undefined : timestampIn(expirationMs),
  });
  if (!token) app.log.info({ client_token: clientToken }, 'access token created');
}

/** Deletes expired authentications in the background, per method, as Flipt's cleanup schedules do. */
function scheduleCleanup(app: FastifyInstance, runtime: AuthRuntime): void {
  const timers = runtime.settings.cleanup.map(({ method, intervalMs, graceMs }) => {
    const timer = setInterval(() => {
      runtime.store
        .purgeExpired(method, timestampIn(-graceMs))
        .catch((error: unknown) => app.log.warn({ err: error, method }, 'cleaning up expired authentications failed'));
    }, intervalMs);
    timer.unref();
    return timer;
  });
  app.addHook('onClose', async () => timers.forEach(clearInterval));
}
