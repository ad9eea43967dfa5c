import type { FastifyInstance } from 'fastify';
import type { BooleanEvaluation, VariantEvaluation } from '../../domain/evaluation/index.js';
import type { AppContext } from '../context.js';
import { AnalyticsRecorder, analyticsRoutes } from './analytics.js';
import { booleanAnswerJson, variantAnswerJson, type AnswerMeta } from './answers.js';
import type { NamespaceSnapshot } from './cache.js';
import { type OfrepHandler, ofrepEvaluation, ofrepRoutes } from './ofrep.js';
import { evaluationRecorder } from './recording.js';
import { protectRoutes } from '../auth/enforce.js';
import { fliptHotScope, parse, prettyPrinting } from '../flipt/routes/http.js';
import { jsonOk } from '../http/answer.js';
import { RouteTable } from '../route-definitions.js';
import { legacyEvaluation, legacyRoutes } from './legacy.js';
import { snapshotRoutes, snapshots } from './snapshot.js';
import { v2Evaluation } from './v2.js';
import { evaluator } from './wire.js';

/**
 * The evaluation API's operations, each answered as its REST route answers (JSON text or a JSON
 * value); the gRPC services (server/grpc/) call these same functions.
 */
export interface EvaluationApi {
  /** One variant flag's evaluation, answered by `answer` (the REST route's JSON, or gRPC's message). */
  variant<T>(body: unknown, answer: (result: VariantEvaluation, meta: AnswerMeta) => T): T | Promise<T>;
  boolean<T>(body: unknown, answer: (result: BooleanEvaluation, meta: AnswerMeta) => T): T | Promise<T>;
  batch(body: unknown): Promise<string>;
  /** The deprecated v1 evaluation, in the path's namespace (when given), else the body's. */
  legacyEvaluate(body: unknown, pathNamespace?: string): Promise<Record<string, unknown>>;
  legacyBatch(body: unknown, pathNamespace?: string): Promise<Record<string, unknown>>;
  snapshot(key: string, reference: string | undefined): Promise<NamespaceSnapshot>;
  /** OFREP's single-flag evaluation: the flag key and the headers (`X-Flipt-Namespace`) ride in the request. */
  ofrep: OfrepHandler;
}

/** How often a server on SQLite looks for changes another process committed (`ensign import`). */
const HISTORY_POLL_MS = 1000;

/**
 * Flag evaluation, the evaluation snapshot and analytics (docs/architecture.md, "How an evaluation flows"):
 * `/evaluate/v1` (v2.ts), the legacy `/api/v1/evaluate` (legacy.ts), OFREP (ofrep.ts), the snapshot
 * (snapshot.ts) and a flag's analytics. Evaluations run on in-memory snapshots (cache.ts); the database is
 * read only to rebuild them.
 */
export async function evaluationPlugin(app: FastifyInstance, context: AppContext): Promise<void> {
  const analytics = context.config.analytics.enabled
    ? new AnalyticsRecorder(() => context.database, context.metrics)
    : undefined;
  analytics?.start(context.config.analytics.flushIntervalMs);
  const record = evaluationRecorder(analytics, context.metrics, context.tracing);
  const { pgPool } = context.database;
  const { flipt, changes, config } = context;
  const stopRelay = pgPool
    ? await changes.relayThroughPostgres(context.database.url, pgPool)
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
  const engine = evaluator(context.snapshots, record);
  const { withSnapshot } = engine;

  const { variant, boolean, batch } = v2Evaluation(engine);
  routes.add({
    method: 'POST',
    url: '/evaluate/v1/variant',
    hot: true,
    handler: ({ body }) => jsonOk(variant(body, variantAnswerJson)),
  });
  routes.add({
    method: 'POST',
    url: '/evaluate/v1/boolean',
    hot: true,
    handler: ({ body }) => jsonOk(boolean(body, booleanAnswerJson)),
  });
  routes.add({ method: 'POST', url: '/evaluate/v1/batch', hot: true, handler: ({ body }) => jsonOk(batch(body)) });

  await app.register(
    async (ofrep) => {
      protectRoutes(ofrep, 'ofrep');
      await ofrepRoutes(ofrep, { withSnapshot, record }, context.config.cors);
    },
    { prefix: '/ofrep/v1' },
  );

  const legacy = legacyEvaluation(engine);
  legacyRoutes(routes, legacy);

  const snapshotOf = snapshots(context);
  await app.register(async (scope) => snapshotRoutes(scope, context, snapshotOf), {
    prefix: '/internal/v1/evaluation',
  });

  context.evaluation = {
    variant,
    boolean,
    batch,
    ...legacy,
    snapshot: snapshotOf,
    ofrep: ofrepEvaluation({ withSnapshot, record }),
  };

  analyticsRoutes(routes, context.database, analytics);
}
