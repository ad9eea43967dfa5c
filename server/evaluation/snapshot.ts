import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { AppContext } from '../context.js';
import { FliptError, GrpcCode } from '../flipt/errors.js';
import { parse } from '../flipt/routes/http.js';
import { RouteTable } from '../route-definitions.js';
import { NamespaceSnapshot, type SnapshotGate } from './cache.js';
import { browserCors } from './cors.js';
import { loadNamespace } from './loader.js';

/** The namespace's evaluation snapshot, or undefined for an unknown one outside database storage (Flipt's 404). */
export function snapshots(context: AppContext) {
  return async (key: string, reference: string | undefined) => {
    const snapshot =
      context.git && reference
        ? new NamespaceSnapshot(await loadNamespace(await context.git.databaseFor(reference), key))
        : await context.snapshots.get(key);
    if (!snapshot.exists && context.config.storage.type !== 'database') {
      throw new FliptError(GrpcCode.NotFound, `getting flags: namespace "${key}" not found`);
    }
    return snapshot;
  };
}

/** Registered under `/internal/v1/evaluation`: the snapshot the client-side SDKs evaluate on, revalidated by its ETag. */
export async function snapshotRoutes(
  app: FastifyInstance,
  context: AppContext,
  snapshotOf: ReturnType<typeof snapshots>,
): Promise<void> {
  await browserCors(app, context.config.cors);
  new RouteTable(app, parse).add({
    method: 'GET',
    url: '/snapshot/namespace/:key',
    params: v.object({ key: v.string() }),
    query: v.object({ reference: v.optional(v.string('must be given once')) }),
    handler: async ({ params, query }, request, reply) => {
      const snapshot = await snapshotOf(params.key, query.reference);
      reply.header('etag', snapshot.etag);
      if (request.headers['if-none-match'] === snapshot.etag) return reply.code(304).send();
      const version = request.headers['x-flipt-accept-server-version'];
      return reply
        .type('application/json')
        .send(snapshot.json(gateFor(typeof version === 'string' ? version : undefined)));
    },
  });
}

/** `X-Flipt-Accept-Server-Version`, parsed tolerantly; absent or unparsable counts as 1.37.1. */
export function gateFor(version: string | undefined): SnapshotGate {
  const parsed = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    (version ?? '').trim(),
  );
  // A pre-release sorts before its release.
  const rank = parsed
    ? +parsed[1] * 1e6 + +(parsed[2] ?? 0) * 1e3 + +(parsed[3] ?? 0) - (parsed[4] ? 0.5 : 0)
    : 1_037_001;
  if (rank < 1_038_000) return 'no-entity-id';
  if (rank < 1_047_000) return 'no-default-variant';
  return 'current';
}
