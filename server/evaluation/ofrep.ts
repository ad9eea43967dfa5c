import { createHash, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  EvaluationError,
  evaluateFlag,
  type AnyEvaluation,
  type CompiledNamespace,
  type EvaluationReason,
} from '../../domain/evaluation/index.js';
import type { Config } from '../config/index.js';
import * as v from 'valibot';
import { FliptError, GrpcCode } from '../flipt/errors.js';
import { fliptHotScope, parse } from '../flipt/routes/http.js';
import { textField } from '../http/fields.js';
import { fliptErrorAnswer, type HttpAnswer, jsonAnswer, jsonOk } from '../http/answer.js';
import { type HotScope, RouteTable } from '../route-definitions.js';
import type { NamespaceSnapshot } from './cache.js';
import { browserCors } from './cors.js';
import type { RecordEvaluation } from './recording.js';
import { ofrepNamespace } from './request-namespace.js';

/**
 * The OpenFeature Remote Evaluation Protocol (OFREP) over the same in-memory snapshots as
 * `/evaluate/v1` (README, "OpenFeature"; docs/compatibility.md for the differences from Flipt).
 */

/** How often a provider may poll: answers are computed in memory and bulk ones are 304 while nothing changed. */
export const MIN_POLLING_INTERVAL_MS = 1000;

export const PROVIDER_CONFIGURATION = JSON.stringify({
  name: 'flipt',
  capabilities: {
    cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: MIN_POLLING_INTERVAL_MS } },
    flagEvaluation: { supportedTypes: ['string', 'boolean'] },
  },
});

/** One flag's evaluation as JSON: synchronously when its namespace is in memory. */
export type OfrepHandler = (body: unknown, request: OfrepRequestInfo) => string | Promise<string>;

/** What a single-flag evaluation reads of its request besides the body: the flag key and `X-Flipt-Namespace`. */
export interface OfrepRequestInfo {
  key: string;
  headers: IncomingHttpHeaders;
}

/** What the OFREP routes need from the evaluation plugin. */
export interface OfrepDependencies {
  /** Runs `answer` on the namespace's snapshot: synchronously when it is in memory. */
  withSnapshot: <R>(namespaceKey: string, answer: (snapshot: NamespaceSnapshot) => R) => R | Promise<R>;
  /** Records one evaluation (analytics, metrics, tracing), as `/evaluate/v1` does. */
  record: RecordEvaluation;
}

/** Flipt's errors in OFREP's shape, on Fastify's path and the hot one; browsers may call it (CORS). */
const ofrepHotScope: HotScope = {
  ...fliptHotScope,
  errorAnswer: (error, params, log) =>
    fliptErrorAnswer(error instanceof FliptError ? asOfrepError(error, textField(params, 'key')) : error, log),
  browserCors: true,
};

/** Registered under `/ofrep/v1`. */
export async function ofrepRoutes(app: FastifyInstance, deps: OfrepDependencies, cors: Config['cors']): Promise<void> {
  await browserCors(app, cors);
  // Thrown on to the app's handler, which answers with the error's status and JSON.
  app.setErrorHandler((error, request) => {
    throw error instanceof FliptError ? asOfrepError(error, textField(request.params, 'key')) : error;
  });

  const evaluateOne = ofrepEvaluation(deps);
  const routes = new RouteTable(app, parse, ofrepHotScope);

  routes.add({
    method: 'GET',
    url: '/configuration',
    hot: true,
    handler: () => jsonAnswer(200, PROVIDER_CONFIGURATION),
  });
  routes.add({
    method: 'POST',
    url: '/evaluate/flags/:key',
    params: v.object({ key: v.string() }),
    hot: true,
    handler: ({ params: { key }, body }, request) => jsonOk(evaluateOne(body, { key, headers: request.headers })),
  });
  routes.add({
    method: 'POST',
    url: '/evaluate/flags',
    hot: true,
    handler: (input, request) => bulkEvaluation(deps, input.body, request.headers),
  });
}

/** `POST /ofrep/v1/evaluate/flags`: the named (else every) flag of the namespace, 304 while the ETag holds. */
async function bulkEvaluation(
  deps: OfrepDependencies,
  body: unknown,
  headers: IncomingHttpHeaders,
): Promise<HttpAnswer> {
  const namespaceKey = ofrepNamespace(headers);
  const input = readOfrepRequest(body);
  const snapshot = await deps.withSnapshot(namespaceKey, (loaded) => loaded);
  const keys = bulkFlagKeys(snapshot.compiled, input.context.flags);
  const etag = bulkEtag(snapshot.etag, namespaceKey, input.context);
  if (etagMatches(headers['if-none-match'], etag)) return { status: 304, headers: ['etag', etag] };
  const flags = keys.map((key) => {
    try {
      const started = performance.now();
      return evaluatedFlagJson(recordedOfrep(deps.record, snapshot.compiled, key, input, started));
    } catch (error) {
      if (error instanceof OfrepError) return JSON.stringify(error.toJSON());
      throw error;
    }
  });
  return jsonAnswer(200, `{"flags":[${flags.join(',')}]}`, ['etag', etag]);
}

/** One flag's evaluation (`POST /ofrep/v1/evaluate/flags/{key}`, and gRPC's EvaluateFlag): the key is the request's. */
export function ofrepEvaluation(deps: OfrepDependencies): OfrepHandler {
  return (body, request) => {
    const namespaceKey = ofrepNamespace(request.headers);
    const input = readOfrepRequest(body, request.key);
    return deps.withSnapshot(namespaceKey, (snapshot) => {
      const started = performance.now();
      return evaluatedFlagJson(recordedOfrep(deps.record, snapshot.compiled, request.key, input, started));
    });
  };
}

export type OfrepErrorCode = 'PARSE_ERROR' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND';

/** An OFREP failure: `{key, errorCode, errorDetails}` for one flag, without `key` for a bulk request. */
export class OfrepError extends FliptError {
  override name = 'OfrepError';
  constructor(
    status: 400 | 404,
    readonly errorCode: OfrepErrorCode,
    errorDetails: string,
    readonly key?: string,
  ) {
    super(status === 404 ? GrpcCode.NotFound : GrpcCode.InvalidArgument, errorDetails, status);
  }

  override toJSON() {
    const failure = { errorCode: this.errorCode, errorDetails: this.message };
    return this.key === undefined ? failure : { key: this.key, ...failure };
  }
}

/** A Flipt error raised on an OFREP route in OFREP's shape: a refused body is a PARSE_ERROR; 401, 413 and the like stay as they are. */
export function asOfrepError(error: FliptError, key: string | undefined): FliptError {
  if (error instanceof OfrepError || error.code !== GrpcCode.InvalidArgument) return error;
  return new OfrepError(400, 'PARSE_ERROR', error.message, key);
}

/** An OFREP request body, read into the engine's terms. */
export interface OfrepRequest {
  /** `context.targetingKey`, else a random one (as Flipt). */
  entityId: string;
  /** The context with every value as a string, as Flipt's engine takes it (`targetingKey` included). */
  context: Record<string, string>;
}

/**
 * `{context}`: a missing body or context is an empty context; numbers and booleans become strings
 * (as the Flipt providers send them), null an empty string; objects and arrays are refused.
 */
export function readOfrepRequest(body: unknown, key?: string): OfrepRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OfrepError(400, 'PARSE_ERROR', 'the request body must be a JSON object', key);
  }
  const sent = (body as { context?: unknown }).context ?? {};
  if (typeof sent !== 'object' || Array.isArray(sent)) {
    throw new OfrepError(400, 'PARSE_ERROR', 'context must be a JSON object', key);
  }
  const context: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    if (typeof value === 'object' && value !== null) {
      throw new OfrepError(
        400,
        'INVALID_CONTEXT',
        `context value "${name}" must be a string, number or boolean, not ${Array.isArray(value) ? 'an array' : 'an object'}`,
        key,
      );
    }
    context[name] = value === null ? '' : String(value);
  }
  return { entityId: context.targetingKey ?? randomUUID(), context };
}

/** Evaluates and records the evaluation, failed or not (a failure is rethrown in OFREP's shape). */
function recordedOfrep(
  record: RecordEvaluation,
  namespace: CompiledNamespace,
  flagKey: string,
  request: OfrepRequest,
  started: number,
): AnyEvaluation {
  try {
    const result = evaluateOfrep(namespace, flagKey, request);
    record(
      namespace,
      flagKey,
      result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE' ? result.variant : result.boolean,
      started,
    );
    return result;
  } catch (error) {
    record(namespace, flagKey, undefined, started);
    throw error;
  }
}

function evaluateOfrep(namespace: CompiledNamespace, flagKey: string, request: OfrepRequest): AnyEvaluation {
  try {
    return evaluateFlag(namespace, { flagKey, entityId: request.entityId, context: request.context });
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    if (error.kind === 'flag_not_found') throw new OfrepError(404, 'FLAG_NOT_FOUND', error.message, flagKey);
    throw new OfrepError(400, 'INVALID_CONTEXT', error.message, flagKey);
  }
}

/** Flipt's evaluation reasons in OFREP's words. */
export function ofrepReason(reason: EvaluationReason): string {
  switch (reason) {
    case 'MATCH_EVALUATION_REASON':
      return 'TARGETING_MATCH';
    case 'DEFAULT_EVALUATION_REASON':
      return 'DEFAULT';
    case 'FLAG_DISABLED_EVALUATION_REASON':
      return 'DISABLED';
    default:
      return 'UNKNOWN';
  }
}

/**
 * One evaluated flag: a variant flag's value is its variant key (the attachment, a JSON string, in
 * `metadata.attachment`), a boolean flag's value is a boolean. Written out like answers.ts: this runs
 * on every evaluation.
 */
export function evaluatedFlagJson(result: AnyEvaluation): string {
  if (result.type === 'BOOLEAN_EVALUATION_RESPONSE_TYPE') {
    const { flagKey, enabled, reason } = result.boolean;
    return `{"key":${JSON.stringify(flagKey)},"reason":"${ofrepReason(reason)}","variant":"${enabled}","value":${enabled},"metadata":{}}`;
  }
  const { flagKey, variantKey, variantAttachment, reason } = result.variant;
  const variant = JSON.stringify(variantKey);
  const metadata = variantAttachment ? `{"attachment":${JSON.stringify(variantAttachment)}}` : '{}';
  return `{"key":${JSON.stringify(flagKey)},"reason":"${ofrepReason(reason)}","variant":${variant},"value":${variant},"metadata":${metadata}}`;
}

/** The most distinct flags a bulk evaluation may name in `context.flags` (docs/compatibility.md). */
export const MAX_BULK_FLAGS = 1000;

/**
 * The flags a bulk evaluation answers: those named in `context.flags` (comma-separated, as Flipt
 * v1.48), each once, else every boolean flag and every enabled variant flag of the namespace. Naming
 * more than `MAX_BULK_FLAGS` is refused, so the answer stays within the request's and the namespace's size.
 */
export function bulkFlagKeys(namespace: CompiledNamespace, named: string | undefined): string[] {
  const keys = new Set<string>();
  for (const part of (named ?? '').split(',')) {
    const key = part.trim();
    if (key === '') continue;
    keys.add(key);
    if (keys.size > MAX_BULK_FLAGS) {
      throw new OfrepError(400, 'INVALID_CONTEXT', `context.flags names more than ${MAX_BULK_FLAGS} flags`);
    }
  }
  if (keys.size > 0) return [...keys];
  return [...namespace.flags.values()]
    .filter((flag) => flag.type === 'BOOLEAN_FLAG_TYPE' || flag.enabled)
    .map((flag) => flag.key);
}

/** A strong ETag over the namespace's snapshot version and what the request asks. */
export function bulkEtag(snapshotEtag: string, namespaceKey: string, context: Record<string, string>): string {
  const hash = createHash('sha1').update(`${snapshotEtag}\n${namespaceKey}\n${JSON.stringify(context)}`);
  return `"${hash.digest('hex')}"`;
}

/** `If-None-Match`: `*` or a list of tags, weak ones compared by their opaque part. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
