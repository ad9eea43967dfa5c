import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

/**
 * The console's Content-Security-Policy: only this server's scripts, no inline script, no plugin, no
 * framing (clickjacking). Inline styles are allowed for React's hoisted `<style>` elements and the
 * survey renderer's Shadow DOM styles; images may come from a login provider (the user's avatar).
 */
export const CONSOLE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Headers the evaluation fast path adds to its JSON answers, which never pass through Fastify's hooks:
 * the ones that matter for a JSON body.
 */
export const FAST_PATH_HEADERS = ['x-content-type-options', 'nosniff', 'referrer-policy', 'no-referrer'];

/**
 * Security headers on every answer Fastify gives (console, demo, API, survey APIs): the CSP above,
 * `X-Frame-Options: DENY` for browsers without frame-ancestors, nosniff, `Referrer-Policy: no-referrer`
 * and a same-origin opener. HSTS is left to whoever terminates TLS. Routes meant for other origins
 * (the widget files, the survey APIs) relax the resource policy themselves (`allowCrossOriginUse`).
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
}

/** For a scope whose answers other sites load (`<script src>`, a survey's image): `Cross-Origin-Resource-Policy: cross-origin`. */
export function allowCrossOriginUse(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });
}
