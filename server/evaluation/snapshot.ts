import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Config } from '../config/index.js';
import type { GitStorage } from '../flipt/declarative/git.js';
import { FliptError, GrpcCode } from '../flipt/errors.js';
import { parse } from '../flipt/routes/http.js';
import { RouteTable } from '../route-definitions.js';
import { NamespaceSnapshot, type SnapshotCache, type SnapshotGate } from './cache.js';
import { browserCors } from './cors.js';
import { loadNamespace } from './loader.js';

/** Where snapshots come from: the cache of the served ref, the git storage for other refs. */
export interface SnapshotSources {
  cache: SnapshotCache;
  git?: GitStorage;
  storageType: Config['storage']['type'];
}

/** The namespace's evaluation snapshot; an unknown one outside database storage is Flipt's 404. */
export function snapshots({ cache, git, storageType }: SnapshotSources) {
  return async (key: string, reference: string | undefined) => {
    const snapshot =
      git && reference
        ? new NamespaceSnapshot(await loadNamespace(await git.databaseFor(reference), key))
        : await cache.get(key);
    if (!snapshot.exists && storageType !== 'database') {
      throw new FliptError(GrpcCode.NotFound, `getting flags: namespace "${key}" not found`);
    }
    return snapshot;
  };
}

/** Registered under `/internal/v1/evaluation`: the snapshot the client-side SDKs evaluate on, revalidated by its ETag. */
export async function snapshotRoutes(
  app: FastifyInstance,
  cors: Config['cors'],
  snapshotOf: (key: string, reference: string | undefined) => Promise<NamespaceSnapshot>,
): Promise<void> {
  await browserCors(app, cors);
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
