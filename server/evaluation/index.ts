import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BooleanEvaluation, VariantEvaluation } from '../../domain/evaluation/index.js';
import type { AppContext } from '../context.js';
import { AnalyticsRecorder, analyticsRoutes } from './analytics.js';
import { booleanAnswerJson, variantAnswerJson, type AnswerMeta } from './answers.js';
import type { NamespaceSnapshot } from './cache.js';
import type { FastHandler } from './fast-path.js';
import { ofrepEvaluation, ofrepRoutes } from './ofrep.js';
import { evaluationRecorder } from './recording.js';
import { authenticationHooksInstalled } from '../auth/index.js';
import { protectRoutes } from '../auth/enforce.js';
import { parse, prettyPrinting } from '../flipt/routes/http.js';
import { RouteTable } from '../route-definitions.js';
import { legacyEvaluation, legacyRoutes } from './legacy.js';
import { snapshotRoutes, snapshots } from './snapshot.js';
import { v2Evaluation } from './v2.js';
import { evaluator } from './wire.js';

const JSON_TYPE = 'application/json; charset=utf-8';

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
  ofrep: FastHandler;
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
  const routes = new RouteTable(app, parse);
  const engine = evaluator(context.snapshots, record);
  const { withSnapshot } = engine;

  const { variant, boolean, batch } = v2Evaluation(engine);
  const variantJson = (body: unknown) => variant(body, variantAnswerJson);
  const booleanJson = (body: unknown) => boolean(body, booleanAnswerJson);
  const sendJson = async (reply: FastifyReply, json: string | Promise<string>) =>
    reply.type(JSON_TYPE).send(await json);

  app.post('/evaluate/v1/variant', async (request, reply) => sendJson(reply, variantJson(request.body)));
  app.post('/evaluate/v1/boolean', async (request, reply) => sendJson(reply, booleanJson(request.body)));
  // The fast path runs no hook: a guard or a rate limit on evaluations needs Fastify's route.
  const hotPath = !authenticationHooksInstalled(context.config) && context.config.rateLimits.evaluation === 0;
  if (hotPath) {
    context.fastPath.add('/evaluate/v1/variant', variantJson);
    context.fastPath.add('/evaluate/v1/boolean', booleanJson);
  }

  // The hot path adds no CORS headers, so a browser-facing OFREP goes through Fastify.
  await app.register(
    async (ofrep) => {
      protectRoutes(ofrep, 'ofrep');
      await ofrepRoutes(ofrep, { context, withSnapshot, record, hotPath: hotPath && !context.config.cors.enabled });
    },
    { prefix: '/ofrep/v1' },
  );

  app.post('/evaluate/v1/batch', async (request, reply) => sendJson(reply, batch(request.body)));

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
