import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { GUARD_STATES, type GuardState } from '../domain/guards/assess.js';
import { type CountSeries, CounterFamily, HistogramFamily, type HistogramSeries } from './metric-series.js';

/**
 * The Prometheus metrics of one server (docs/operations.md, "Metrics"). Evaluation metrics carry
 * Flipt's names and labels so that dashboards built for Flipt keep working; the rest are Ensign's.
 * Every series is resolved once, on first use, and then counted as plain numbers (metric-series.ts):
 * the hot path pays a map lookup and an addition, not prom-client's label hashing.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly evaluationRequests: CounterFamily;
  private readonly evaluationResults: CounterFamily;
  private readonly evaluationErrors: CounterFamily;
  private readonly evaluationLatency: HistogramFamily;
  private readonly serverErrors: CountSeries;
  private readonly httpDuration: HistogramFamily;
  /** Snapshot lookups answered from memory (hit) or by a load (miss), and reloads after a change. */
  readonly snapshots: Record<'hit' | 'miss' | 'reload' | 'partial', CountSeries>;
  /** Analytics flushes that wrote their counts (ok) or kept them for the next (failed). */
  readonly analyticsFlushes: Record<'ok' | 'failed', CountSeries>;
  readonly surveyDisplays: CountSeries;
  readonly surveyResponses: CountSeries;
  private readonly guardStates: Gauge;
  private readonly grpcStartedFamily: CounterFamily;
  private readonly grpcHandledFamily: CounterFamily;
  /** Namespace, then flag key: nested maps, so that a lookup builds no string. */
  private readonly flags = new Map<string, Map<string, FlagSeries>>();
  private readonly routes = new Map<string, HistogramSeries>();

  constructor() {
    const registry = this.registry;
    collectDefaultMetrics({ register: registry });
    this.evaluationRequests = new CounterFamily(registry, {
      name: 'flipt_evaluations_requests_total',
      help: 'The total number of requested evaluations',
      labelNames: ['flag', 'namespace'],
    });
    this.evaluationResults = new CounterFamily(registry, {
      name: 'flipt_evaluations_results_total',
      help: 'The total number of evaluation results',
      labelNames: ['flag', 'namespace', 'match', 'reason', 'value', 'type'],
    });
    this.evaluationErrors = new CounterFamily(registry, {
      name: 'flipt_evaluations_errors_total',
      help: 'The total number of requested evaluations that failed',
      labelNames: ['flag', 'namespace'],
    });
    this.evaluationLatency = new HistogramFamily(
      registry,
      'flipt_evaluations_latency_milliseconds',
      'The latency of individual evaluations in milliseconds',
      [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000],
    );
    this.serverErrors = new CounterFamily(registry, {
      name: 'flipt_server_errors_total',
      help: 'The total number of requests answered with a server error (5xx)',
    }).series();
    this.httpDuration = new HistogramFamily(
      registry,
      'ensign_http_request_duration_seconds',
      'HTTP request duration by method, route and status',
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    );
    const snapshots = new CounterFamily(registry, {
      name: 'ensign_snapshot_cache_total',
      help: 'Evaluation snapshot lookups (hit, miss), reloads after a change (reload), and loads that read only what changed (partial)',
      labelNames: ['result'],
    });
    this.snapshots = {
      hit: snapshots.series({ result: 'hit' }),
      miss: snapshots.series({ result: 'miss' }),
      reload: snapshots.series({ result: 'reload' }),
      partial: snapshots.series({ result: 'partial' }),
    };
    const flushes = new CounterFamily(registry, {
      name: 'ensign_analytics_flushes_total',
      help: 'Analytics count flushes to the database, by result (ok, failed)',
      labelNames: ['result'],
    });
    this.analyticsFlushes = { ok: flushes.series({ result: 'ok' }), failed: flushes.series({ result: 'failed' }) };
    this.surveyDisplays = new CounterFamily(registry, {
      name: 'ensign_survey_displays_total',
      help: 'Survey displays recorded through the client API',
    }).series();
    // go-grpc-prometheus's names and labels, as Flipt's gRPC server exports them.
    this.grpcStartedFamily = new CounterFamily(registry, {
      name: 'grpc_server_started_total',
      help: 'Total number of RPCs started on the server.',
      labelNames: ['grpc_type', 'grpc_service', 'grpc_method'],
    });
    this.grpcHandledFamily = new CounterFamily(registry, {
      name: 'grpc_server_handled_total',
      help: 'Total number of RPCs completed on the server, regardless of success or failure.',
      labelNames: ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code'],
    });
    this.guardStates = new Gauge({
      name: 'ensign_guard_state',
      help: "Each feedback guard's state: 1 on the state it is in, 0 on the others",
      labelNames: ['namespace', 'flag', 'guard', 'state'],
      registers: [registry],
      // With --workers every process assesses the same guards: the primary shows one verdict, not their sum.
      aggregator: 'max',
    });
    this.surveyResponses = new CounterFamily(registry, {
      name: 'ensign_survey_responses_total',
      help: 'Survey responses created through the client API',
    }).series();
  }

  /** A feedback guard's latest verdict. */
  guardState(namespace: string, flag: string, guard: string, state: GuardState): void {
    for (const each of GUARD_STATES)
      this.guardStates.set({ namespace, flag, guard, state: each }, each === state ? 1 : 0);
  }

  /** One evaluation that found its flag: Flipt's request, result and latency series. */
  evaluated(namespace: string, flag: string, result: EvaluationOutcome, latencyMs: number): void {
    const series = this.flagSeries(namespace, flag);
    series.requests.inc();
    series.latency ??= this.evaluationLatency.series({ flag, namespace });
    series.latency.observe(latencyMs);
    const key = `${result.match}\0${result.reason}\0${result.value}\0${result.type}`;
    let results = series.results.get(key);
    if (!results) {
      results = this.evaluationResults.series({
        flag,
        namespace,
        match: String(result.match),
        reason: result.reason,
        value: result.value,
        type: result.type,
      });
      series.results.set(key, results);
    }
    results.inc();
  }

  /** An evaluation that failed (unknown flag, wrong type), under the labels of recording.ts's failureLabels. */
  evaluationFailed(namespace: string, flag: string): void {
    const series = this.flagSeries(namespace, flag);
    series.requests.inc();
    series.errors ??= this.evaluationErrors.series({ flag, namespace });
    series.errors.inc();
  }

  /** A finished HTTP request; `route` is the route's pattern, never the raw URL. */
  answered(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.routes.get(key);
    if (!series) {
      series = this.httpDuration.series({ method, route, status_code: String(status) });
      this.routes.set(key, series);
    }
    series.observe(seconds);
    if (status >= 500) this.serverErrors.inc();
  }

  /** A method's counters: started, and handled with each code, the series looked up once per code. */
  grpcMethod(labels: GrpcLabels): GrpcMethodCounters {
    const started = this.grpcStartedFamily.series(labels);
    const handled = new Map<string, CountSeries>();
    return {
      started: () => started.inc(),
      handled: (code) => {
        let series = handled.get(code);
        if (!series) {
          series = this.grpcHandledFamily.series({ ...labels, grpc_code: code });
          handled.set(code, series);
        }
        series.inc();
      },
    };
  }

  /** The text Prometheus scrapes: this process's metrics, or every worker's when this is one of several. */
  async exposition(): Promise<string> {
    return cluster.isWorker ? askPrimaryForMetrics() : this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private flagSeries(namespace: string, flag: string): FlagSeries {
    let flags = this.flags.get(namespace);
    if (!flags) {
      flags = new Map();
      this.flags.set(namespace, flags);
    }
    let series = flags.get(flag);
    if (!series) {
      series = { requests: this.evaluationRequests.series({ flag, namespace }), results: new Map() };
      flags.set(flag, series);
    }
    return series;
  }
}

export interface GrpcMethodCounters {
  started(): void;
  /** `code`: Go's name of the status code (`OK`, `NotFound`). */
  handled(code: string): void;
}

/** A gRPC method, in go-grpc-prometheus's labels. */
export type GrpcLabels = {
  grpc_type: string;
  grpc_service: string;
  grpc_method: string;
};

/** What an evaluation answered, in Flipt's result labels. */
export interface EvaluationOutcome {
  match: boolean;
  reason: string;
  value: string;
  type: 'variant' | 'boolean';
  /** The segments that matched, for the span's `flipt.segments` (Flipt v1.61). */
  segmentKeys: string[];
}

/** A flag's series, each created when first counted (a flag never evaluated successfully has no latency). */
interface FlagSeries {
  requests: CountSeries;
  errors?: CountSeries;
  latency?: HistogramSeries;
  results: Map<string, CountSeries>;
}

const METRICS_REQUEST = 'ensign:metrics-request';
const METRICS_ANSWER = 'ensign:metrics-answer';

interface MetricsMessage {
  type: typeof METRICS_REQUEST | typeof METRICS_ANSWER;
  id: string;
  text?: string;
  error?: string;
}

function isMetricsMessage(message: unknown, type: MetricsMessage['type']): message is MetricsMessage {
  return typeof message === 'object' && message !== null && (message as MetricsMessage).type === type;
}

/** In a worker: the primary gathers every worker's registry (prom-client's cluster protocol) and sums them. */
function askPrimaryForMetrics(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const listener = (message: unknown) => {
      if (!isMetricsMessage(message, METRICS_ANSWER) || message.id !== id) return;
      process.off('message', listener);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.text ?? '');
    };
    process.on('message', listener);
    process.send!({ type: METRICS_REQUEST, id });
  });
}

/**
 * In the primary of `--workers N`: answers a worker's request for the metrics of all of them.
 * Each worker hands its registry to prom-client's cluster protocol when it builds its app.
 */
export function answerMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message) => {
    if (!isMetricsMessage(message, METRICS_REQUEST)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: METRICS_ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: METRICS_ANSWER, id: message.id, error: error.message }),
    );
  });
}

/** In a worker: the registry prom-client's cluster protocol reports to the primary. */
export function reportToPrimary(metrics: Metrics): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([metrics.registry]);
  // prom-client starts answering the primary's requests once an aggregator exists in the process.
  new AggregatorRegistry();
}
