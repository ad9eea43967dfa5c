import type { FastifyInstance } from 'fastify';
import { protectRoutes } from '../auth/enforce.js';
import type { ChangeFeed } from '../changes.js';
import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import { fliptHotScope, parse, prettyPrinting } from '../flipt/routes/http.js';
import type { FliptStore } from '../flipt/store/index.js';
import { jsonOk } from '../http/answer.js';
import { RouteTable } from '../route-definitions.js';
import { analyticsRoutes } from './analytics.js';
import { booleanAnswerJson, variantAnswerJson } from './answers.js';
import type { Evaluation } from './api.js';
import { legacyRoutes } from './legacy.js';
import { ofrepRoutes } from './ofrep.js';
import { snapshotRoutes } from './snapshot.js';

// The gRPC services take the API's type from here.
export type { EvaluationApi } from './api.js';

/** How often a server on SQLite looks for changes another process committed (`ensign import`). */
const HISTORY_POLL_MS = 1000;

/** What the evaluation routes are handed: the evaluation built before them, and what keeps its snapshots current. */
export interface EvaluationRouteDependencies {
  config: Config;
  database: Database;
  changes: ChangeFeed;
  flipt: FliptStore;
  evaluation: Evaluation;
}

/**
 * Flag evaluation, the evaluation snapshot and analytics (docs/architecture.md, "How an evaluation flows"):
 * `/evaluate/v1` (v2.ts), the legacy `/api/v1/evaluate` (legacy.ts), OFREP (ofrep.ts), the snapshot
 * (snapshot.ts) and a flag's analytics, over the operations of api.ts. Evaluations run on in-memory
 * snapshots (cache.ts); the database is read only to rebuild them.
 */
export async function evaluationPlugin(app: FastifyInstance, deps: EvaluationRouteDependencies): Promise<void> {
  const { config, database, changes, flipt, evaluation } = deps;
  const { api, analytics } = evaluation;
  analytics?.start(config.analytics.flushIntervalMs);
  const { pgPool } = database;
  const stopRelay = pgPool
    ? await changes.relayThroughPostgres(database.url, pgPool)
    : config.storage.type === 'database'
      ? await changes.followHistory(
          { lastId: () => flipt.lastHistoryId(), after: (id, limit) => flipt.changesAfter(id, limit) },
          HISTORY_POLL_MS,
        )
      : undefined;
  app.addHook('onClose', async () => {
    await stopRelay?.();
    await analytics?.stop();
  });

  prettyPrinting(app);
  const routes = new RouteTable(app, parse, fliptHotScope);
  routes.add({
    method: 'POST',
    url: '/evaluate/v1/variant',
    hot: true,
    handler: ({ body }) => jsonOk(api.variant(body, variantAnswerJson)),
  });
  routes.add({
    method: 'POST',
    url: '/evaluate/v1/boolean',
    hot: true,
    handler: ({ body }) => jsonOk(api.boolean(body, booleanAnswerJson)),
  });
  routes.add({ method: 'POST', url: '/evaluate/v1/batch', hot: true, handler: ({ body }) => jsonOk(api.batch(body)) });

  await app.register(
    async (ofrep) => {
      protectRoutes(ofrep, 'ofrep');
      await ofrepRoutes(ofrep, evaluation.ofrep, config.cors);
    },
    { prefix: '/ofrep/v1' },
  );

  legacyRoutes(routes, api);

  await app.register(async (scope) => snapshotRoutes(scope, config.cors, api.snapshot), {
    prefix: '/internal/v1/evaluation',
  });

  analyticsRoutes(routes, database, analytics);
}
