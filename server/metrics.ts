import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Histogram,
  Registry,
  type Counter as CounterType,
  type Histogram as HistogramType,
} from 'prom-client';

/**
 * The Prometheus metrics of one server (docs/operations.md, "Metrics"). Evaluation metrics carry
 * Flipt's names and labels so that dashboards built for Flipt keep working; the rest are Ensign's.
 * Label sets seen on the hot path are resolved once and kept, so counting costs a property read
 * and an addition rather than hashing the labels on every request.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly evaluationRequests: CounterType<'flag' | 'namespace'>;
  private readonly evaluationResults: CounterType<'flag' | 'namespace' | 'match' | 'reason' | 'value' | 'type'>;
  private readonly evaluationErrors: CounterType<'flag' | 'namespace'>;
  private readonly evaluationLatency: HistogramType<'flag' | 'namespace'>;
  private readonly serverErrors: CounterType;
  private readonly httpDuration: HistogramType<'method' | 'route' | 'status_code'>;
  /** Snapshot lookups answered from memory (hit) or by a load (miss), and reloads after a change. */
  readonly snapshots: Record<'hit' | 'miss' | 'reload', CounterChild>;
  /** Analytics flushes that wrote their counts (ok) or kept them for the next (failed). */
  readonly analyticsFlushes: Record<'ok' | 'failed', CounterChild>;
  readonly surveyDisplays: CounterType;
  readonly surveyResponses: CounterType;
  private readonly flags = new Map<string, FlagSeries>();
  private readonly routes = new Map<string, HistogramChild>();

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.evaluationRequests = new Counter({
      name: 'flipt_evaluations_requests_total',
      help: 'The total number of requested evaluations',
      labelNames: ['flag', 'namespace'],
      registers,
    });
    this.evaluationResults = new Counter({
      name: 'flipt_evaluations_results_total',
      help: 'The total number of evaluation results',
      labelNames: ['flag', 'namespace', 'match', 'reason', 'value', 'type'],
      registers,
    });
    this.evaluationErrors = new Counter({
      name: 'flipt_evaluations_errors_total',
      help: 'The total number of requested evaluations that failed',
      labelNames: ['flag', 'namespace'],
      registers,
    });
    this.evaluationLatency = new Histogram({
      name: 'flipt_evaluations_latency_milliseconds',
      help: 'The latency of individual evaluations in milliseconds',
      labelNames: ['flag', 'namespace'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000],
      registers,
    });
    this.serverErrors = new Counter({
      name: 'flipt_server_errors_total',
      help: 'The total number of requests answered with a server error (5xx)',
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'ensign_http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    const snapshots = new Counter({
      name: 'ensign_snapshot_cache_total',
      help: 'Evaluation snapshot lookups (hit, miss) and reloads after a change (reload)',
      labelNames: ['result'],
      registers,
    });
    this.snapshots = {
      hit: snapshots.labels('hit'),
      miss: snapshots.labels('miss'),
      reload: snapshots.labels('reload'),
    };
    const flushes = new Counter({
      name: 'ensign_analytics_flushes_total',
      help: 'Analytics count flushes to the database, by result (ok, failed)',
      labelNames: ['result'],
      registers,
    });
    this.analyticsFlushes = { ok: flushes.labels('ok'), failed: flushes.labels('failed') };
    this.surveyDisplays = new Counter({
      name: 'ensign_survey_displays_total',
      help: 'Survey displays recorded through the client API',
      registers,
    });
    this.surveyResponses = new Counter({
      name: 'ensign_survey_responses_total',
      help: 'Survey responses created through the client API',
      registers,
    });
  }

  /** One evaluation that found its flag: Flipt's request, result and latency series. */
  evaluated(namespace: string, flag: string, result: EvaluationOutcome, latencyMs: number): void {
    const series = this.flagSeries(namespace, flag);
    series.requests.inc();
    series.latency.observe(latencyMs);
    const key = `${result.match}\0${result.reason}\0${result.value}\0${result.type}`;
    let results = series.results.get(key);
    if (!results) {
      results = this.evaluationResults.labels({ flag, namespace, ...result, match: String(result.match) });
      series.results.set(key, results);
    }
    results.inc();
  }

  /** An evaluation that failed (unknown flag, bad request): not kept per label set, the keys come from clients. */
  evaluationFailed(namespace: string, flag: string): void {
    this.evaluationRequests.inc({ flag, namespace });
    this.evaluationErrors.inc({ flag, namespace });
  }

  /** A finished HTTP request; `route` is the route's pattern, never the raw URL. */
  answered(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let child = this.routes.get(key);
    if (!child) {
      child = this.httpDuration.labels({ method, route, status_code: String(status) });
      this.routes.set(key, child);
    }
    child.observe(seconds);
    if (status >= 500) this.serverErrors.inc();
  }

  /** The text Prometheus scrapes: this process's metrics, or every worker's when this is one of several. */
  async exposition(): Promise<string> {
    return cluster.isWorker ? askPrimaryForMetrics() : this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private flagSeries(namespace: string, flag: string): FlagSeries {
    const key = `${namespace}\0${flag}`;
    let series = this.flags.get(key);
    if (!series) {
      series = {
        requests: this.evaluationRequests.labels({ flag, namespace }),
        latency: this.evaluationLatency.labels({ flag, namespace }),
        results: new Map(),
      };
      this.flags.set(key, series);
    }
    return series;
  }
}

/** What an evaluation answered, in Flipt's result labels. */
export interface EvaluationOutcome {
  match: boolean;
  reason: string;
  value: string;
  type: 'variant' | 'boolean';
}

type CounterChild = ReturnType<Counter['labels']>;
type HistogramChild = ReturnType<Histogram['labels']>;

interface FlagSeries {
  requests: CounterChild;
  latency: HistogramChild;
  results: Map<string, CounterChild>;
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
