import type { Config } from './config/index.js';
import type { Database } from './db/index.js';
import type { ChangeFeed } from './changes.js';
import type { FliptStore } from './flipt/store/index.js';
import type { FastPath } from './evaluation/fast-path.js';
import type { GitStorage } from './flipt/declarative/git.js';
import type { Metrics } from './metrics.js';
import type { Tracing } from './tracing.js';

/** What every route module is given: the resolved configuration and the open database. */
export interface AppContext {
  config: Config;
  database: Database;
  /** Writes publish the namespace they changed; caches subscribe. */
  changes: ChangeFeed;
  /** Flipt's namespaces, flags, segments, rules and rollouts (read-only for declarative storage). */
  flipt: FliptStore;
  /** Routes answered before Fastify's pipeline (the evaluation hot path). */
  fastPath: FastPath;
  /** Present with `storage.type: git`: other refs for `?reference=`, the branch and tag list, health. */
  git?: GitStorage;
  /** Prometheus metrics; undefined when `metrics.enabled` is false. */
  metrics?: Metrics;
  /** OpenTelemetry spans; undefined unless `tracing.enabled`. */
  tracing?: Tracing;
}
