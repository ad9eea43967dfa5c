import type { Config } from './config/index.js';
import type { Database } from './db/index.js';
import type { ChangeFeed } from './changes.js';
import type { FliptStore } from './flipt/store/index.js';
import type { GitStorage } from './flipt/declarative/git.js';
import type { Metrics } from './metrics.js';
import type { SnapshotCache } from './evaluation/cache.js';
import type { Tracing } from './tracing.js';
import type { EvaluationApi } from './evaluation/api.js';
import type { AuthRuntime } from './auth/runtime.js';

/** What every route module is given: the resolved configuration and the open database. */
export interface AppContext {
  config: Config;
  database: Database;
  /** Writes publish the namespace they changed; caches subscribe. */
  changes: ChangeFeed;
  /** Flipt's namespaces, flags, segments, rules and rollouts (read-only for declarative storage). */
  flipt: FliptStore;
  /** Each namespace's compiled flags and segments, rebuilt after a change: evaluation and survey targeting read them. */
  snapshots: SnapshotCache;
  /** Present with `storage.type: git`: other refs for `?reference=`, the branch and tag list, health. */
  git?: GitStorage;
  /** Prometheus metrics; undefined when `metrics.enabled` is false. */
  metrics?: Metrics;
  /** OpenTelemetry spans; undefined unless `tracing.enabled`. */
  tracing?: Tracing;
  /** The evaluation operations, built before any route: the REST routes and the gRPC services call them. */
  readonly evaluation: EvaluationApi;
  /** Authentication's settings, store and keys, made before any route. */
  readonly auth: AuthRuntime;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's context, for what serves beside it (the gRPC server). */
    ensign: AppContext;
  }
}
