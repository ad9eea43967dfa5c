import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  EvaluationError,
  evaluateBoolean,
  evaluateFlag,
  evaluateVariant,
  type AnyEvaluation,
  type CompiledNamespace,
  type BooleanEvaluation,
  type EvaluationRequest,
  type VariantEvaluation,
} from '../../domain/evaluation/index.js';
import { DEFAULT_NAMESPACE } from '../../domain/flipt/types.js';
import type { AppContext } from '../context.js';
import { FliptError, GrpcCode, invalid, invalidField } from '../flipt/errors.js';
import { AnalyticsRecorder, flagSeries } from './analytics.js';
import { SnapshotCache, type NamespaceSnapshot, type SnapshotGate } from './cache.js';
import { loadNamespace } from './loader.js';
import { authenticationHooksInstalled } from '../auth/index.js';
import { prettyPrinting } from '../flipt/routes/http.js';

/**
 * Flag evaluation (reference §2.6, §2.7, §5), the evaluation snapshot (§8) and analytics (§2.11).
 * Evaluations run on in-memory snapshots (cache.ts); the database is read only to rebuild them.
 */
export async function evaluationPlugin(app: FastifyInstance, context: AppContext): Promise<void> {
  const cache = new SnapshotCache((namespaceKey) => loadNamespace(context.flipt.database, namespaceKey), context.changes);
  const analytics = context.config.analytics.enabled ? new AnalyticsRecorder(() => context.database) : undefined;
  analytics?.start(context.config.analytics.flushIntervalMs);
  const { pgPool } = context.database;
  const stopRelay = pgPool ? await context.changes.relayThroughPostgres(context.database.url, pgPool) : undefined;
  app.addHook('onClose', async () => {
    cache.close();
    await stopRelay?.();
    await analytics?.stop();
  });

  prettyPrinting(app);
  const compiled = async (namespaceKey: string) => (await cache.get(namespaceKey)).compiled;

  /** One flag of a known type: evaluate, count, answer in the endpoint's shape. */
  const single =
    <R extends { flagKey: string }>(
      evaluate: (namespace: CompiledNamespace, input: WireRequest) => R,
      respond: (result: R, requestId: string, duration: number, timestamp: string) => unknown,
    ) =>
    async (body: unknown) => {
      const started = performance.now();
      const input = readRequest(body);
      const namespaceKey = input.namespaceKey || DEFAULT_NAMESPACE;
      const namespace = await compiled(namespaceKey);
      const result = withFliptErrors(() => evaluate(namespace, input));
      analytics?.record(namespaceKey, input.flagKey);
      return respond(result, input.requestId || randomUUID(), performance.now() - started, evaluationTimestamp());
    };
  const variant = single(evaluateVariant, variantResponse);
  const boolean = single(evaluateBoolean, booleanResponse);

  app.post('/evaluate/v1/variant', (request) => variant(request.body));
  app.post('/evaluate/v1/boolean', (request) => boolean(request.body));
  if (!authenticationHooksInstalled(context.config)) {
    context.fastPath.add('/evaluate/v1/variant', variant);
    context.fastPath.add('/evaluate/v1/boolean', boolean);
  }

  app.post('/evaluate/v1/batch', async (request) => {
    const started = performance.now();
    const body = objectBody(request.body);
    const inputs = list(body, 'requests').map(readRequest);
    const results: (AnyEvaluation | undefined)[] = [];
    for (const input of inputs) {
      const namespaceKey = input.namespaceKey || DEFAULT_NAMESPACE;
      const namespace = await compiled(namespaceKey);
      const result = withFliptErrors(() => evaluateFlag(namespace, input), { notFound: () => undefined });
      if (result) analytics?.record(namespaceKey, input.flagKey);
      results.push(result);
    }
    const duration = performance.now() - started;
    const timestamp = evaluationTimestamp();
    return {
      requestId: text(body, 'requestId', 'request_id') || randomUUID(),
      responses: results.map((result, i) => {
        const { requestId, flagKey, namespaceKey } = inputs[i];
        if (!result) {
          return { type: 'ERROR_EVALUATION_RESPONSE_TYPE', errorResponse: { flagKey, namespaceKey, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' } };
        }
        return result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE'
          ? { type: result.type, variantResponse: variantResponse(result.variant, requestId, duration, timestamp) }
          : { type: result.type, booleanResponse: booleanResponse(result.boolean, requestId, duration, timestamp) };
      }),
      requestDurationMillis: duration,
    };
  });

  // The deprecated v1 evaluation API (variant flags only), on namespace "default" or the path's.
  const legacyNamespace = (request: FastifyRequest, sent: string) =>
    (request.params as { namespaceKey?: string }).namespaceKey || sent || DEFAULT_NAMESPACE;

  const legacyEvaluate = async (request: FastifyRequest) => {
    const started = performance.now();
    const input = readLegacyRequest(request.body);
    const namespaceKey = legacyNamespace(request, input.namespaceKey);
    const namespace = await compiled(namespaceKey);
    const result = withFliptErrors(() => evaluateVariant(namespace, input));
    analytics?.record(namespaceKey, input.flagKey);
    return legacyResponse(input, namespaceKey, result, input.requestId || randomUUID(), performance.now() - started, evaluationTimestamp());
  };
  app.post('/api/v1/evaluate', legacyEvaluate);
  app.post('/api/v1/namespaces/:namespaceKey/evaluate', legacyEvaluate);

  const legacyBatch = async (request: FastifyRequest) => {
    const started = performance.now();
    const body = objectBody(request.body);
    const namespaceKey = legacyNamespace(request, text(body, 'namespaceKey', 'namespace_key'));
    const excludeNotFound = field(body, 'excludeNotFound', 'exclude_not_found') === true;
    const inputs = list(body, 'requests').map(readLegacyRequest);
    for (const input of inputs) {
      if (input.namespaceKey && input.namespaceKey !== namespaceKey) {
        throw invalidField('namespace_key', 'must be the same for all requests if specified');
      }
    }
    const namespace = await compiled(namespaceKey);
    const evaluated: [WireRequest, VariantEvaluation][] = [];
    for (const input of inputs) {
      const result = withFliptErrors(() => evaluateVariant(namespace, input), excludeNotFound ? { notFound: () => undefined } : {});
      if (!result) continue;
      analytics?.record(namespaceKey, input.flagKey);
      evaluated.push([input, result]);
    }
    const duration = performance.now() - started;
    const timestamp = evaluationTimestamp();
    return {
      requestId: text(body, 'requestId', 'request_id') || randomUUID(),
      responses: evaluated.map(([input, result]) => legacyResponse(input, namespaceKey, result, '', duration, timestamp)),
      requestDurationMillis: duration,
    };
  };
  app.post('/api/v1/batch-evaluate', legacyBatch);
  app.post('/api/v1/namespaces/:namespaceKey/batch-evaluate', legacyBatch);

  app.get('/internal/v1/evaluation/snapshot/namespace/:key', async (request, reply) => {
    const { key } = request.params as { key: string };
    const snapshot = await cache.get(key);
    if (!snapshot.exists && context.config.storage.type === 'local') {
      throw new FliptError(GrpcCode.NotFound, `getting flags: namespace "${key}" not found`);
    }
    reply.header('etag', snapshot.etag);
    if (request.headers['if-none-match'] === snapshot.etag) return reply.code(304).send();
    const version = request.headers['x-flipt-accept-server-version'];
    return reply.type('application/json').send(snapshot.json(gateFor(typeof version === 'string' ? version : undefined)));
  });

  app.get('/internal/v1/analytics/namespaces/:namespaceKey/flags/:flagKey', async (request) => {
    if (!analytics) throw new FliptError(GrpcCode.Unimplemented, 'analytics are not enabled');
    const { namespaceKey, flagKey } = request.params as { namespaceKey: string; flagKey: string };
    const query = request.query as { from?: string; to?: string };
    const from = parseDateTime(query.from ?? '');
    const to = parseDateTime(query.to ?? '');
    return flagSeries(context.database, analytics, namespaceKey, flagKey, from, to);
  });
}

function variantResponse(result: VariantEvaluation, requestId: string, duration: number, timestamp: string) {
  return {
    match: result.match,
    segmentKeys: result.segmentKeys,
    reason: result.reason,
    variantKey: result.variantKey,
    variantAttachment: result.variantAttachment,
    requestId,
    requestDurationMillis: duration,
    timestamp,
    flagKey: result.flagKey,
  };
}

function booleanResponse(result: BooleanEvaluation, requestId: string, duration: number, timestamp: string) {
  return {
    enabled: result.enabled,
    reason: result.reason,
    requestId,
    requestDurationMillis: duration,
    timestamp,
    flagKey: result.flagKey,
    segmentKeys: result.segmentKeys,
  };
}

function legacyResponse(input: WireRequest, namespaceKey: string, result: VariantEvaluation, requestId: string, duration: number, timestamp: string) {
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

let cachedSecond = -1;
let cachedPrefix = '';

/**
 * The evaluation time as RFC 3339 UTC to the microsecond (what Node's clock has of Flipt's
 * nanoseconds), trailing zero triplets trimmed as Flipt does. Runs on every evaluation, so the
 * date and time part is formatted once per second.
 */
function evaluationTimestamp(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const second = Math.floor(micros / 1_000_000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 19);
  }
  const fraction = micros - second * 1_000_000;
  if (fraction === 0) return `${cachedPrefix}Z`;
  if (fraction % 1000 === 0) return `${cachedPrefix}.${String(fraction / 1000).padStart(3, '0')}Z`;
  return `${cachedPrefix}.${String(fraction).padStart(6, '0')}Z`;
}

/**
 * An evaluation request as sent: camelCase or snake_case fields; context values must be strings.
 * Checked by hand rather than with a schema: this runs on every evaluation.
 */
interface WireRequest extends EvaluationRequest {
  requestId: string;
  namespaceKey: string;
}

function readRequest(body: unknown): WireRequest {
  const fields = objectBody(body);
  const context = field(fields, 'context', 'context');
  if (context !== undefined && context !== null) {
    if (typeof context !== 'object' || Array.isArray(context)) throw badBody();
    for (const value of Object.values(context)) if (typeof value !== 'string') throw badBody();
  }
  return {
    requestId: text(fields, 'requestId', 'request_id'),
    namespaceKey: text(fields, 'namespaceKey', 'namespace_key'),
    flagKey: text(fields, 'flagKey', 'flag_key'),
    entityId: text(fields, 'entityId', 'entity_id'),
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

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badBody();
  return body as Record<string, unknown>;
}

function field(fields: Record<string, unknown>, camel: string, snake: string): unknown {
  return Object.hasOwn(fields, camel) ? fields[camel] : Object.hasOwn(fields, snake) ? fields[snake] : undefined;
}

function text(fields: Record<string, unknown>, camel: string, snake: string): string {
  const value = field(fields, camel, snake);
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw badBody();
  return value;
}

function list(fields: Record<string, unknown>, name: string): unknown[] {
  const value = fields[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badBody();
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

/** `X-Flipt-Accept-Server-Version`, parsed tolerantly; absent or unparsable counts as 1.37.1 (reference §8.1). */
export function gateFor(version: string | undefined): SnapshotGate {
  const parsed = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec((version ?? '').trim());
  // A pre-release sorts before its release.
  const rank = parsed ? +parsed[1] * 1e6 + +(parsed[2] ?? 0) * 1e3 + +(parsed[3] ?? 0) - (parsed[4] ? 0.5 : 0) : 1_037_001;
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
    const valid = date.getUTCMonth() === +match[2] - 1 && date.getUTCDate() === +match[3] && +match[4] < 24 && +match[5] < 60 && +match[6] < 60;
    if (valid) return date.getTime();
  }
  throw new FliptError(GrpcCode.Internal, `parsing time "${value}" as "2006-01-02 15:04:05": cannot parse`);
}
