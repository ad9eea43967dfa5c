import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  EvaluationError,
  evaluateBoolean,
  evaluateFlag,
  evaluateVariant,
  type AnyEvaluation,
  type BooleanEvaluation,
  type CompiledNamespace,
  type EvaluationRequest,
  type VariantEvaluation,
} from '../../domain/evaluation/index.js';
import type { AppContext } from '../context.js';
import { FliptError, GrpcCode, invalid, invalidField } from '../flipt/errors.js';
import { AnalyticsRecorder, flagSeries } from './analytics.js';
import { booleanAnswerJson, elapsedSince, evaluationTimestamp, variantAnswerJson, type AnswerMeta } from './answers.js';
import { NamespaceSnapshot, type SnapshotGate } from './cache.js';
import type { FastHandler } from './fast-path.js';
import { loadNamespace } from './loader.js';
import { ofrepEvaluation, ofrepRoutes } from './ofrep.js';
import { browserCors } from './cors.js';
import { evaluationRecorder } from './recording.js';
import { authenticationHooksInstalled } from '../auth/index.js';
import { protectedAs, protectRoutes } from '../auth/enforce.js';
import { prettyPrinting } from '../flipt/routes/http.js';
import {
  either,
  evaluationNamespace,
  legacyEvaluationNamespace,
  namedNamespace,
  wireText,
} from './request-namespace.js';

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

/**
 * Flag evaluation, the evaluation snapshot and analytics (docs/architecture.md, "How an evaluation flows").
 * Evaluations run on in-memory snapshots (cache.ts); the database is read only to rebuild them.
 */
export async function evaluationPlugin(app: FastifyInstance, context: AppContext): Promise<void> {
  const cache = context.snapshots;
  const analytics = context.config.analytics.enabled
    ? new AnalyticsRecorder(() => context.database, context.metrics)
    : undefined;
  analytics?.start(context.config.analytics.flushIntervalMs);
  const record = evaluationRecorder(analytics, context.metrics, context.tracing);
  const { pgPool } = context.database;
  const stopRelay = pgPool ? await context.changes.relayThroughPostgres(context.database.url, pgPool) : undefined;
  app.addHook('onClose', async () => {
    await stopRelay?.();
    await analytics?.stop();
  });

  prettyPrinting(app);

  /** Runs one evaluation and records it, failed or not (a failure is rethrown in Flipt's shape). */
  const recorded = <R extends VariantEvaluation | BooleanEvaluation>(
    namespace: CompiledNamespace,
    flagKey: string,
    evaluate: () => R,
  ): R => {
    const started = performance.now();
    try {
      const result = withFliptErrors(evaluate);
      record(namespace, flagKey, result, started);
      return result;
    } catch (error) {
      record(namespace, flagKey, undefined, started);
      throw error;
    }
  };
  const compiled = async (namespaceKey: string) => (await cache.get(namespaceKey)).compiled;
  /** Synchronous while the namespace's snapshot is in memory (the hot path answers without a promise), else after its load. */
  const withSnapshot = <R>(namespaceKey: string, answer: (snapshot: NamespaceSnapshot) => R): R | Promise<R> => {
    const snapshot = cache.get(namespaceKey);
    return snapshot instanceof Promise ? snapshot.then(answer) : answer(snapshot);
  };

  /** One flag of a known type: evaluate, count, answer in the endpoint's JSON. */
  const single =
    <R extends VariantEvaluation | BooleanEvaluation>(
      evaluate: (namespace: CompiledNamespace, input: WireRequest) => R,
    ) =>
    <T>(body: unknown, answer: (result: R, meta: AnswerMeta) => T): T | Promise<T> => {
      const started = performance.now();
      const input = readRequest(body);
      return withSnapshot(evaluationNamespace(input.namespaceKey), (snapshot) => {
        const result = recorded(snapshot.compiled, input.flagKey, () => evaluate(snapshot.compiled, input));
        return answer(result, {
          requestId: input.requestId || randomUUID(),
          durationMillis: elapsedSince(started),
          timestamp: evaluationTimestamp(),
        });
      });
    };
  const variant = single(evaluateVariant);
  const boolean = single(evaluateBoolean);
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

  const batch = async (sent: unknown): Promise<string> => {
    const started = performance.now();
    const body = objectBody(sent);
    const inputs = batchItems(body.requests).map(readRequest);
    const namespaceKeys = new Set(inputs.map((input) => evaluationNamespace(input.namespaceKey)));
    if (namespaceKeys.size > MAX_BATCH_NAMESPACES) {
      throw invalidField('requests', `must name at most ${MAX_BATCH_NAMESPACES} namespaces`);
    }
    // One after the other: loads of the embedded database do not run side by side.
    const namespaces = new Map<string, CompiledNamespace>();
    for (const key of namespaceKeys) namespaces.set(key, await compiled(key));
    const results: (AnyEvaluation | undefined)[] = [];
    for (const input of inputs) {
      const namespace = namespaces.get(evaluationNamespace(input.namespaceKey))!;
      const evaluated = performance.now();
      const result = withFliptErrors(() => evaluateFlag(namespace, input), { notFound: () => undefined });
      record(
        namespace,
        input.flagKey,
        result && (result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE' ? result.variant : result.boolean),
        evaluated,
      );
      results.push(result);
    }
    const durationMillis = elapsedSince(started);
    const timestamp = evaluationTimestamp();
    const responses = results.map((result, i) => {
      const { requestId, flagKey, namespaceKey } = inputs[i];
      if (!result) {
        return JSON.stringify({
          type: 'ERROR_EVALUATION_RESPONSE_TYPE',
          errorResponse: { flagKey, namespaceKey, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
        });
      }
      const meta = { requestId, durationMillis, timestamp };
      return result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE'
        ? `{"type":"${result.type}","variantResponse":${variantAnswerJson(result.variant, meta)}}`
        : `{"type":"${result.type}","booleanResponse":${booleanAnswerJson(result.boolean, meta)}}`;
    });
    const requestId = text(either(body.requestId, body.request_id)) || randomUUID();
    return `{"requestId":${JSON.stringify(requestId)},"responses":[${responses.join(',')}],"requestDurationMillis":${durationMillis}}`;
  };
  app.post('/evaluate/v1/batch', async (request, reply) => sendJson(reply, batch(request.body)));

  // The deprecated v1 evaluation API (variant flags only), on the path's namespace, the body's or "default".
  const pathNamespace = (request: FastifyRequest) => (request.params as { namespaceKey?: string }).namespaceKey;

  const legacyEvaluate = async (body: unknown, path?: string) => {
    const started = performance.now();
    const input = readLegacyRequest(body);
    const namespaceKey = required(legacyEvaluationNamespace(path, body));
    const namespace = await compiled(namespaceKey);
    const result = recorded(namespace, input.flagKey, () => evaluateVariant(namespace, input));
    return legacyResponse(
      input,
      namespaceKey,
      result,
      input.requestId || randomUUID(),
      elapsedSince(started),
      evaluationTimestamp(),
    );
  };
  const legacyEvaluateRoute = async (request: FastifyRequest) => legacyEvaluate(request.body, pathNamespace(request));
  app.post('/api/v1/evaluate', protectedAs('management'), legacyEvaluateRoute);
  app.post('/api/v1/namespaces/:namespaceKey/evaluate', protectedAs('management'), legacyEvaluateRoute);

  const legacyBatch = async (sent: unknown, path?: string) => {
    const started = performance.now();
    const body = objectBody(sent);
    const namespaceKey = required(legacyEvaluationNamespace(path, sent));
    const excludeNotFound = either(body.excludeNotFound, body.exclude_not_found) === true;
    const inputs = batchItems(body.requests).map(readLegacyRequest);
    for (const input of inputs) {
      if (input.namespaceKey && input.namespaceKey !== namespaceKey) {
        throw invalidField('namespace_key', 'must be the same for all requests if specified');
      }
    }
    const namespace = await compiled(namespaceKey);
    const evaluated: [WireRequest, VariantEvaluation][] = [];
    for (const input of inputs) {
      const started = performance.now();
      const result = withFliptErrors(
        () => evaluateVariant(namespace, input),
        excludeNotFound ? { notFound: () => undefined } : {},
      );
      record(namespace, input.flagKey, result, started);
      if (result) evaluated.push([input, result]);
    }
    const duration = elapsedSince(started);
    const timestamp = evaluationTimestamp();
    return {
      requestId: text(either(body.requestId, body.request_id)) || randomUUID(),
      responses: evaluated.map(([input, result]) =>
        legacyResponse(input, namespaceKey, result, '', duration, timestamp),
      ),
      requestDurationMillis: duration,
    };
  };
  const legacyBatchRoute = async (request: FastifyRequest) => legacyBatch(request.body, pathNamespace(request));
  app.post('/api/v1/batch-evaluate', protectedAs('management'), legacyBatchRoute);
  app.post('/api/v1/namespaces/:namespaceKey/batch-evaluate', protectedAs('management'), legacyBatchRoute);

  /** The namespace's evaluation snapshot, or undefined for an unknown one outside database storage (Flipt's 404). */
  const snapshotOf = async (key: string, reference: string | undefined) => {
    const snapshot =
      context.git && reference
        ? new NamespaceSnapshot(await loadNamespace(await context.git.databaseFor(reference), key))
        : await cache.get(key);
    if (!snapshot.exists && context.config.storage.type !== 'database') {
      throw new FliptError(GrpcCode.NotFound, `getting flags: namespace "${key}" not found`);
    }
    return snapshot;
  };

  await app.register(
    async (snapshots) => {
      await browserCors(snapshots, context.config.cors);
      snapshots.get('/snapshot/namespace/:key', async (request, reply) => {
        const { key } = request.params as { key: string };
        const { reference } = request.query as { reference?: string };
        const snapshot = await snapshotOf(key, reference);
        reply.header('etag', snapshot.etag);
        if (request.headers['if-none-match'] === snapshot.etag) return reply.code(304).send();
        const version = request.headers['x-flipt-accept-server-version'];
        return reply
          .type('application/json')
          .send(snapshot.json(gateFor(typeof version === 'string' ? version : undefined)));
      });
    },
    { prefix: '/internal/v1/evaluation' },
  );

  context.evaluation = {
    variant,
    boolean,
    batch,
    legacyEvaluate,
    legacyBatch,
    snapshot: snapshotOf,
    ofrep: ofrepEvaluation({ withSnapshot, record }),
  };

  app.get(
    '/internal/v1/analytics/namespaces/:namespaceKey/flags/:flagKey',
    protectedAs('management'),
    async (request) => {
      if (!analytics) throw new FliptError(GrpcCode.Unimplemented, 'analytics are not enabled');
      const { namespaceKey, flagKey } = request.params as { namespaceKey: string; flagKey: string };
      const query = request.query as { from?: string; to?: string };
      const from = parseDateTime(query.from ?? '');
      const to = parseDateTime(query.to ?? '');
      return flagSeries(context.database, analytics, namespaceKey, flagKey, from, to);
    },
  );
}

function legacyResponse(
  input: WireRequest,
  namespaceKey: string,
  result: VariantEvaluation,
  requestId: string,
  duration: number,
  timestamp: string,
) {
  return {
    requestId,
    entityId: input.entityId,
    requestContext: input.context,
    match: result.match,
    flagKey: result.flagKey,
    segmentKey: result.segmentKeys[0] ?? '',
    timestamp,
    value: result.variantKey,
    requestDurationMillis: duration,
    attachment: result.variantAttachment,
    reason: result.reason,
    namespaceKey,
    segmentKeys: result.segmentKeys,
  };
}

/**
 * An evaluation request as sent: camelCase or snake_case fields; context values must be strings.
 * Checked by hand rather than with a schema: this runs on every evaluation.
 */
interface WireRequest extends EvaluationRequest {
  requestId: string;
  namespaceKey: string;
}

/**
 * A JSON body's fields, read as properties: none of these names exists on `Object.prototype`, and
 * plain property reads keep the hot path fast (a key chosen at run time makes every read a slow one).
 */
type WireFields = Partial<
  Record<
    | 'requestId'
    | 'request_id'
    | 'namespaceKey'
    | 'namespace_key'
    | 'flagKey'
    | 'flag_key'
    | 'entityId'
    | 'entity_id'
    | 'context'
    | 'requests'
    | 'excludeNotFound'
    | 'exclude_not_found',
    unknown
  >
>;

function readRequest(body: unknown): WireRequest {
  const fields = objectBody(body);
  const { context } = fields;
  if (context !== undefined && context !== null) {
    if (typeof context !== 'object' || Array.isArray(context)) throw badBody();
    for (const key in context) if (typeof (context as Record<string, unknown>)[key] !== 'string') throw badBody();
  }
  return {
    requestId: text(either(fields.requestId, fields.request_id)),
    namespaceKey: required(namedNamespace(fields)),
    flagKey: text(either(fields.flagKey, fields.flag_key)),
    entityId: text(either(fields.entityId, fields.entity_id)),
    context: (context ?? {}) as Record<string, string>,
  };
}

/** The legacy API validates what v2 does not. */
function readLegacyRequest(body: unknown): WireRequest {
  const input = readRequest(body);
  if (input.flagKey === '') throw invalidField('flagKey', 'must not be empty');
  if (input.entityId === '') throw invalidField('entityId', 'must not be empty');
  return input;
}

function objectBody(body: unknown): WireFields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badBody();
  return body as WireFields;
}

function text(value: unknown): string {
  return required(wireText(value));
}

/** A value the request-namespace readers found malformed (undefined) is the handler's 400. */
function required<T>(value: T | undefined): T {
  if (value === undefined) throw badBody();
  return value;
}

/**
 * The most items a batch evaluation may hold, and the most namespaces a batch's items may name
 * (docs/compatibility.md): each bounds the work and the answer one request can cause.
 */
export const MAX_BATCH_ITEMS = 1000;
export const MAX_BATCH_NAMESPACES = 10;

function batchItems(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badBody();
  if (value.length > MAX_BATCH_ITEMS) throw invalidField('requests', `must hold at most ${MAX_BATCH_ITEMS} items`);
  return value;
}

function badBody(): FliptError {
  return invalid('invalid values for key(s) in json body');
}

/** Runs an evaluation, turning the engine's refusals into Flipt's errors (or `notFound`'s answer). */
function withFliptErrors<T, U = never>(evaluate: () => T, options: { notFound?: () => U } = {}): T | U {
  try {
    return evaluate();
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    if (error.kind === 'flag_not_found') {
      if (options.notFound) return options.notFound();
      throw new FliptError(GrpcCode.NotFound, error.message);
    }
    throw new FliptError(GrpcCode.InvalidArgument, error.message);
  }
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

/** Go's `time.DateTime` layout (`2006-01-02 15:04:05`), in UTC; a parse failure is a 500 as in Flipt. */
function parseDateTime(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})$/.exec(value);
  const date = match && new Date(0);
  if (match && date) {
    date.setUTCFullYear(+match[1], +match[2] - 1, +match[3]);
    date.setUTCHours(+match[4], +match[5], +match[6]);
    const valid =
      date.getUTCMonth() === +match[2] - 1 &&
      date.getUTCDate() === +match[3] &&
      +match[4] < 24 &&
      +match[5] < 60 &&
      +match[6] < 60;
    if (valid) return date.getTime();
  }
  throw new FliptError(GrpcCode.Internal, `parsing time "${value}" as "2006-01-02 15:04:05": cannot parse`);
}
