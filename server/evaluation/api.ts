import type { BooleanEvaluation, VariantEvaluation } from '../../domain/evaluation/index.js';
import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import type { GitStorage } from '../flipt/declarative/git.js';
import type { Metrics } from '../metrics.js';
import type { Tracing } from '../tracing.js';
import { AnalyticsRecorder } from './analytics.js';
import type { AnswerMeta } from './answers.js';
import type { NamespaceSnapshot, SnapshotCache } from './cache.js';
import { legacyEvaluation } from './legacy.js';
import { type OfrepDependencies, type OfrepHandler, ofrepEvaluation } from './ofrep.js';
import { evaluationRecorder } from './recording.js';
import { snapshots } from './snapshot.js';
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

/** What evaluating needs, all made before any route. */
export interface EvaluationSources {
  config: Config;
  database: Database;
  snapshots: SnapshotCache;
  git?: GitStorage;
  metrics?: Metrics;
  tracing?: Tracing;
}

/** The evaluation API, and what its routes share besides it (the bulk OFREP route's snapshot access, analytics). */
export interface Evaluation {
  api: EvaluationApi;
  ofrep: OfrepDependencies;
  /** Present when `analytics.enabled`: evaluations are counted into it; the evaluation plugin starts and stops it. */
  analytics?: AnalyticsRecorder;
}

/** Builds the evaluation operations over the snapshot cache: the REST routes and the gRPC services are handed the result. */
export function buildEvaluation(sources: EvaluationSources): Evaluation {
  const { config, database, metrics, tracing } = sources;
  const analytics = config.analytics.enabled ? new AnalyticsRecorder(() => database, metrics) : undefined;
  const record = evaluationRecorder(analytics, metrics, tracing);
  const engine = evaluator(sources.snapshots, record);
  const ofrep = { withSnapshot: engine.withSnapshot, record };
  const api: EvaluationApi = {
    ...v2Evaluation(engine),
    ...legacyEvaluation(engine),
    snapshot: snapshots({ cache: sources.snapshots, git: sources.git, storageType: config.storage.type }),
    ofrep: ofrepEvaluation(ofrep),
  };
  return { api: Object.freeze(api), ofrep, analytics };
}
