import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { sql } from 'kysely';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type RouteOptions,
} from 'fastify';
import { http, https } from './node-http.js';
import fastifyCookie from '@fastify/cookie';
import type { Config } from './config/index.js';
import { isPostgresUrl, openDatabase, type Database } from './db/index.js';
import type { AppContext } from './context.js';
import { ChangeFeed } from './changes.js';
import { AuditDispatcher } from './audit/dispatcher.js';
import { type FliptError, GrpcCode } from './flipt/errors.js';
import { fliptManagementRoutes } from './flipt/routes/index.js';
import { FliptStore } from './flipt/store/index.js';
import { FeedbackGuards } from './guards/guards.js';
import { installAuth } from './auth/index.js';
import { protectRoutes } from './auth/enforce.js';
import { parse } from './flipt/routes/http.js';
import { RouteTable } from './route-definitions.js';
import { metaRoutes } from './flipt/routes/meta.js';
import { LocalStorage } from './flipt/declarative/local.js';
import { GitStorage } from './flipt/declarative/git.js';
import { surveyPlugin } from './surveys/plugin.js';
import { consoleSurveyRoutes } from './surveys/console.js';
import { SurveyStore } from './surveys/store/index.js';
import { surveyResultsPlugin } from './surveys/results-routes.js';
import { evaluationPlugin } from './evaluation/index.js';
import { buildEvaluation, type Evaluation } from './evaluation/api.js';
import { createAuthRuntime } from './auth/runtime.js';
import { SnapshotCache } from './evaluation/cache.js';
import { parseJsonBody } from './json-body.js';
import { serveConsole } from './console-files.js';
import { installSecurityHeaders } from './security-headers.js';
import { answers, BODY_LIMIT, fliptErrorAnswer } from './http/answer.js';
import { HotPath } from './http/hot-path.js';
import { installRateLimits } from './rate-limits.js';
import { loggerOptions, STARTUP_MARK } from './logging.js';
import { Metrics, reportToPrimary } from './metrics.js';
import { startTracing, type Tracing } from './tracing.js';
import packageJson from '../package.json' with { type: 'json' };

export interface BuildOptions {
  /** An already open database; when absent the app opens (and later closes) `config.db.url`. */
  database?: Database;
  /** Fastify's logger, as `log.*` configures it; off unless asked for. */
  logger?: boolean;
  /** Called for every route as it is registered (the route scan test collects them). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * Builds the Fastify app: the Flipt v1 API, the survey client API and the built console and widget.
 * Tests drive it with `app.inject()`; `ensign serve` calls `listen()` on it.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const tracing = config.tracing.enabled
    ? await startTracing(config, packageJson.version, isPostgresUrl(config.db.url) ? 'postgres' : 'sqlite')
    : undefined;
  const database = options.database ?? (await openDatabase(config.db.url, { onQuery: tracing?.query }));
  if (!options.database) performance.mark(`${STARTUP_MARK}database`);
  let hotPath: HotPath | undefined;
  const app = createFastify(
    config,
    options,
    tracing,
    (request, response, handler) => hotPath?.handle(request, response, handler) ?? false,
  );
  if (!options.database) app.addHook('onClose', () => database.close());
  if (tracing) {
    app.addHook('onClose', () => tracing.shutdown());
    app.addHook('onRequest', async (request) => {
      tracing.routed(request.raw, request.method, request.routeOptions.url ?? 'unmatched');
    });
  }
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  const composed = await composeContext(app, config, database, tracing);
  hotPath = new HotPath(app.log, composed.context.metrics, tracing);
  app.decorate('hotPath', hotPath);
  await installPipeline(app, composed.context, hotPath);
  await registerRoutes(app, composed);
  return app;
}

/** Fastify as Ensign configures it; `hot` answers a request ahead of Fastify when it can (http/hot-path.ts). */
function createFastify(
  config: Config,
  options: BuildOptions,
  tracing: Tracing | undefined,
  hot: (request: IncomingMessage, response: ServerResponse, handler: RequestListener) => boolean,
): FastifyInstance {
  const { tls } = config.server;
  return Fastify({
    serverFactory: (handler) => {
      const answer: RequestListener = (request, response) =>
        hot(request, response, handler) || handler(request, response);
      const listener = tracing ? tracing.listener(answer) : answer;
      return tls ? https.createServer({ cert: tls.cert, key: tls.key }, listener) : http.createServer(listener);
    },
    logger: options.logger ? loggerOptions(config) : false,
    // One line per request, at debug level, in installPipeline (Fastify's own are two, at info).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Flipt keys may be 255 characters long, so path parameters must fit them.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    return503OnClosing: true,
    // Flipt's API answers no HEAD requests; a HEAD twin of every GET route was a fifth of the start-up
    // time (bench/startup). /health and the static files keep theirs.
    exposeHeadRoutes: false,
    // Malformed URLs and over-long parameters, caught by the router: answered in Flipt's shape too.
    frameworkErrors: (error, request, reply) => answerInFliptShape(error, request, reply),
    // Requests are checked with valibot, no route declares a JSON Schema: Fastify's own compilers (ajv,
    // fast-json-stringify) are never built, and dist/cli.js leaves them out (tsup.config.ts).
    schemaController: { compilersFactory: { buildValidator: noJsonSchema, buildSerializer: noJsonSchema } },
  });
}

/** What the routes are built from: the shared context, plus what only they use. */
interface Composed {
  context: AppContext;
  guards: FeedbackGuards;
  /** The evaluation API with what its own routes start and stop (analytics) and OFREP's parts. */
  evaluation: Evaluation;
}

/**
 * Everything the routes and the gRPC server share, built before any route: the storage the configuration
 * names, the change feed, audit, metrics, the feedback guards, the snapshots, the evaluation API and the
 * auth runtime. Each part that runs in the background stops with the app.
 */
async function composeContext(
  app: FastifyInstance,
  config: Config,
  database: Database,
  tracing: Tracing | undefined,
): Promise<Composed> {
  const changes = new ChangeFeed();
  // One of several worker processes (server/workers.ts): the others must learn of this one's writes.
  if (cluster.isWorker) {
    const stopRelay = changes.relayThroughCluster();
    app.addHook('onClose', async () => stopRelay());
  }
  // `storage.type: local` serves a folder of features files, read-only, reloaded when it changes.
  const local =
    config.storage.type === 'local' ? await LocalStorage.open(config.storage.localPath!, changes, app.log) : undefined;
  if (local) {
    local.watch();
    app.addHook('onClose', () => local.close());
  }
  // `storage.type: git` serves a repository's ref the same way, polled; `?reference=` reads other refs.
  const git = config.storage.type === 'git' ? await GitStorage.open(config.storage.git!, changes, app.log) : undefined;
  if (git) {
    git.watch();
    app.addHook('onClose', () => git.close());
  }
  const flipt =
    local?.store ?? git?.store ?? new FliptStore(database, changes, { readOnly: config.storage.readOnly ?? false });
  // The audit sinks and the history's retention read the server's own database, whatever the storage.
  const audit = new AuditDispatcher(database, config.audit, app.log);
  await audit.start(changes);
  app.addHook('preClose', async () => audit.close());
  const metrics = config.metrics.enabled ? new Metrics() : undefined;
  if (metrics) reportToPrimary(metrics);
  const guards = new FeedbackGuards(flipt, metrics);
  const stopGuards = guards.start((error) => app.log.warn(`feedback guards: ${(error as Error).message}`));
  app.addHook('preClose', async () => stopGuards());
  const snapshots = new SnapshotCache(flipt, changes, metrics);
  app.addHook('onClose', async () => snapshots.close());
  const evaluation = buildEvaluation({ config, database, snapshots, git, metrics, tracing });
  const context: AppContext = Object.freeze({
    config,
    database,
    changes,
    flipt,
    snapshots,
    git,
    metrics,
    tracing,
    evaluation: evaluation.api,
    auth: createAuthRuntime(config, database, app.log),
  });
  // The gRPC server (server/grpc/) serves from the same context.
  app.decorate('ensign', context);
  return { context, guards, evaluation };
}

/**
 * What every request goes through, installed before any route: metrics and the request log, JSON bodies,
 * Flipt-shaped errors, security headers, rate limits, cookies, authentication, and the hot path, which
 * reads what the others marked on each route as it is registered.
 */
async function installPipeline(app: FastifyInstance, context: AppContext, hotPath: HotPath): Promise<void> {
  const { metrics, config } = context;
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics?.answered(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    request.log.debug(
      { method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime },
      'request',
    );
  });
  acceptAnyContentTypeAsJson(app);
  app.setErrorHandler(answerInFliptShape);
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send({ code: GrpcCode.NotFound, message: 'Not Found', details: [] });
  });
  await installSecurityHeaders(app);
  await installRateLimits(app, config.rateLimits);
  await app.register(fastifyCookie);
  await installAuth(app, context.auth);
  hotPath.install(app, config);
}

/** The routes, one scope per surface, each declaring its routes' protection (routes that differ declare their own). */
async function registerRoutes(app: FastifyInstance, { context, guards, evaluation }: Composed): Promise<void> {
  const { config, database, changes, flipt, git, metrics } = context;
  const routes = new RouteTable(app, parse);
  routes.add({
    method: 'GET',
    url: '/health',
    protection: 'public',
    exposeHeadRoute: true,
    handler: async (_input, _request, reply) => {
      const serving = await sql`select 1`.execute(database.db).then(
        () => true,
        () => false,
      );
      const detail = git ? { detail: { git: git.health() } } : {};
      return serving ? { status: 'SERVING', ...detail } : reply.code(503).send({ status: 'NOT_SERVING', ...detail });
    },
  });
  if (metrics) {
    routes.add({
      method: 'GET',
      url: '/metrics',
      protection: 'public',
      handler: async (_input, _request, reply) => reply.type(metrics.contentType).send(await metrics.exposition()),
    });
  }
  await app.register(async (api) => {
    protectRoutes(api, 'management');
    git?.answerReferences(api);
    await fliptManagementRoutes(api, flipt, guards);
  });
  await app.register(async (api) => {
    protectRoutes(api, 'always');
    await metaRoutes(api, context);
  });
  await app.register(async (api) => {
    protectRoutes(api, 'evaluation');
    await evaluationPlugin(api, { config, database, changes, flipt, evaluation });
  });
  if (config.surveys.enabled) {
    // The survey APIs check their own keys.
    await app.register(async (surveys) => {
      protectRoutes(surveys, 'public');
      await surveyPlugin(surveys, context);
    });
    // The console's survey pages, guarded as Flipt's management API.
    await app.register(async (api) => {
      protectRoutes(api, 'management');
      consoleSurveyRoutes(api, new SurveyStore(database, changes), context);
    });
    await app.register(async (results) => {
      protectRoutes(results, 'management');
      await surveyResultsPlugin(results, context);
    });
  }
  if (config.ui.enabled && existsSync(config.paths.console)) {
    await app.register(async (files) => {
      protectRoutes(files, 'public');
      await serveConsole(files, config.paths.console);
    });
  }
}

function noJsonSchema(): never {
  throw new Error('Ensign routes declare no JSON Schema: check requests with valibot (domain/)');
}

/** Every body is JSON, whatever its Content-Type; area plugins that need other types (multipart) register them in their scope. */
function acceptAnyContentTypeAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as FliptError, undefined);
    }
  });
}

function answerInFliptShape(
  error: FastifyError | FliptError,
  request: { log: FastifyInstance['log'] },
  reply: FastifyReply,
) {
  return answers.send(reply, fliptErrorAnswer(error, request.log));
}
