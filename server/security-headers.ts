import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import helmet from 'helmet';

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

const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  strictTransportSecurity: false,
};

/**
 * The headers helmet puts on an answer, as flat name/value pairs (names in lower case) for `writeHead`: helmet's
 * own middleware run once with the options @fastify/helmet gets, so that answers written without Fastify (the
 * hot path, server/http/) carry exactly what helmet gives every other answer.
 */
export function helmetHeaders(): string[] {
  const headers: string[] = [];
  const collect = {
    setHeader: (name: string, value: unknown) => headers.push(name.toLowerCase(), String(value)),
    removeHeader: () => {},
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, collect as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Security headers on every answer Fastify gives (console, demo, API, survey APIs): the CSP above,
 * `X-Frame-Options: DENY` for browsers without frame-ancestors, nosniff, `Referrer-Policy: no-referrer`
 * and a same-origin opener. HSTS is left to whoever terminates TLS. Routes meant for other origins
 * (the widget files, the survey APIs) relax the resource policy themselves (`allowCrossOriginUse`).
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, { global: true, ...HELMET_OPTIONS });
}

/** For a scope whose answers other sites load (`<script src>`, a survey's image): `Cross-Origin-Resource-Policy: cross-origin`. */
export function allowCrossOriginUse(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });
}
