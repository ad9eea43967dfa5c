import Fastify, { type FastifyInstance } from 'fastify';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';

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

const HELMET_OPTIONS: FastifyHelmetOptions = {
  global: true,
  contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
};

/** Headers every answer carries that are not helmet's (what a plain answer has without it). */
const NOT_HELMET = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers helmet puts on an answer, as flat name/value pairs for `writeHead`: read once from an answer of a
 * bare Fastify with the same helmet options, so that answers written without Fastify (the fast path) carry
 * exactly what helmet gives every other answer.
 */
export async function helmetHeaders(): Promise<string[]> {
  const probe = Fastify();
  await probe.register(fastifyHelmet, HELMET_OPTIONS);
  probe.get('/', async () => '');
  const { headers } = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  return Object.entries(headers).flatMap(([name, value]) => (NOT_HELMET.has(name) ? [] : [name, String(value)]));
}

/**
 * `headers` (flat name/value pairs) with each of `defaults` not already named in them: a route's own header
 * (a cross-origin resource policy, say) wins over the default.
 */
export function withDefaultHeaders(headers: string[], defaults: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < headers.length; i += 2) named.add(headers[i].toLowerCase());
  const merged = [...headers];
  for (let i = 0; i < defaults.length; i += 2) if (!named.has(defaults[i])) merged.push(defaults[i], defaults[i + 1]);
  return merged;
}

/**
 * Security headers on every answer Fastify gives (console, demo, API, survey APIs): the CSP above,
 * `X-Frame-Options: DENY` for browsers without frame-ancestors, nosniff, `Referrer-Policy: no-referrer`
 * and a same-origin opener. HSTS is left to whoever terminates TLS. Routes meant for other origins
 * (the widget files, the survey APIs) relax the resource policy themselves (`allowCrossOriginUse`).
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, HELMET_OPTIONS);
}

/** For a scope whose answers other sites load (`<script src>`, a survey's image): `Cross-Origin-Resource-Policy: cross-origin`. */
export function allowCrossOriginUse(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });
}
