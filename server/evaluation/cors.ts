import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.js';

/**
 * CORS for the routes browsers call from a site's own origin (OFREP and the client-side SDKs'
 * snapshot), when `cors.enabled`: the configured origins and headers, and the ETag exposed so that
 * their conditional polling works.
 */
export async function browserCors(scope: FastifyInstance, cors: Config['cors']): Promise<void> {
  if (!cors.enabled) return;
  await scope.register(fastifyCors, {
    origin: cors.allowedOrigins.includes('*') ? '*' : cors.allowedOrigins,
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: cors.allowedHeaders,
    exposedHeaders: ['ETag'],
    maxAge: 300,
  });
}
