import {
  EvaluationError,
  type BooleanEvaluation,
  type CompiledNamespace,
  type EvaluationRequest,
  type VariantEvaluation,
} from '../../domain/evaluation/index.js';
import { FliptError, GrpcCode, invalid, invalidField } from '../flipt/errors.js';
import type { NamespaceSnapshot, SnapshotCache } from './cache.js';
import type { RecordEvaluation } from './recording.js';
import { either, namedNamespace, wireText } from './request-namespace.js';

/**
 * What the v2 and legacy evaluation APIs share: reading their JSON requests by hand (this runs on every
 * evaluation) and running evaluations on the namespaces' snapshots, recorded.
 */

/**
 * An evaluation request as sent: camelCase or snake_case fields; context values must be strings.
 * Checked by hand rather than with a schema: this runs on every evaluation.
 */
export interface WireRequest extends EvaluationRequest {
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

export function readRequest(body: unknown): WireRequest {
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

export function objectBody(body: unknown): WireFields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badBody();
  return body as WireFields;
}

export function text(value: unknown): string {
  return required(wireText(value));
}

/** A value the request-namespace readers found malformed (undefined) is the handler's 400. */
export function required<T>(value: T | undefined): T {
  if (value === undefined) throw badBody();
  return value;
}

/**
 * The most items a batch evaluation may hold, and the most namespaces a batch's items may name
 * (docs/compatibility.md): each bounds the work and the answer one request can cause.
 */
export const MAX_BATCH_ITEMS = 1000;
export const MAX_BATCH_NAMESPACES = 10;

export function batchItems(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badBody();
  if (value.length > MAX_BATCH_ITEMS) throw invalidField('requests', `must hold at most ${MAX_BATCH_ITEMS} items`);
  return value;
}

function badBody(): FliptError {
  return invalid('invalid values for key(s) in json body');
}

/** Runs an evaluation, turning the engine's refusals into Flipt's errors (or `notFound`'s answer). */
export function withFliptErrors<T, U = never>(evaluate: () => T, options: { notFound?: () => U } = {}): T | U {
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

/** Runs evaluations on the namespaces' snapshots, recording each. */
export interface Evaluator {
  /** Runs one evaluation and records it, failed or not (a failure is rethrown in Flipt's shape). */
  recorded<R extends VariantEvaluation | BooleanEvaluation>(
    namespace: CompiledNamespace,
    flagKey: string,
    evaluate: () => R,
  ): R;
  compiled(namespaceKey: string): Promise<CompiledNamespace>;
  /** Synchronous while the namespace's snapshot is in memory (the hot path answers without a promise), else after its load. */
  withSnapshot<R>(namespaceKey: string, answer: (snapshot: NamespaceSnapshot) => R): R | Promise<R>;
  record: RecordEvaluation;
}

export function evaluator(cache: SnapshotCache, record: RecordEvaluation): Evaluator {
  return {
    recorded(namespace, flagKey, evaluate) {
      const started = performance.now();
      try {
        const result = withFliptErrors(evaluate);
        record(namespace, flagKey, result, started);
        return result;
      } catch (error) {
        record(namespace, flagKey, undefined, started);
        throw error;
      }
    },
    compiled: async (namespaceKey) => (await cache.get(namespaceKey)).compiled,
    withSnapshot(namespaceKey, answer) {
      const snapshot = cache.get(namespaceKey);
      return snapshot instanceof Promise ? snapshot.then(answer) : answer(snapshot);
    },
    record,
  };
}
