import type { IncomingMessage, RequestListener } from 'node:http';
import type { Span, Tracer } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';
import type { Config } from './config/index.js';
import type { Dialect } from './db/index.js';
import type { EvaluationOutcome } from './metrics.js';

/**
 * OpenTelemetry tracing, on when `tracing.enabled`: a span per HTTP request, per evaluation and per
 * database query, sent to an OTLP/HTTP collector. The SDK is imported here, when tracing starts,
 * so a server without tracing never loads it.
 */
export interface Tracing {
  /** Wraps the server's listener: each request runs inside its span, which ends when the answer is sent. */
  listener(listener: RequestListener): RequestListener;
  /** Runs a gRPC call inside its span (`flipt.Flipt/GetFlag`), which ends when the call settles. */
  rpc<T>(service: string, method: string, run: () => Promise<T>): Promise<T>;
  /** Names a request's span after the route it matched. */
  routed(request: IncomingMessage, method: string, route: string): void;
  /** One evaluation, already run: `startedMs` is its `performance.now()` start. */
  evaluation(namespaceKey: string, flagKey: string, outcome: EvaluationOutcome | undefined, startedMs: number): void;
  /** Kysely's log hook: one span per query, under the request that ran it. */
  query(event: LogEvent): void;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

export async function startTracing(config: Config, version: string, dialect: Dialect): Promise<Tracing> {
  const [api, { NodeTracerProvider }, base, { OTLPTraceExporter }, { resourceFromAttributes }, semconv] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/semantic-conventions'),
    ]);
  const { endpoint, headers, samplingRatio } = config.tracing;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [semconv.ATTR_SERVICE_NAME]: 'ensign',
      [semconv.ATTR_SERVICE_VERSION]: version,
    }),
    sampler: new base.ParentBasedSampler({ root: new base.TraceIdRatioBasedSampler(samplingRatio) }),
    spanProcessors: [
      new base.BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint, headers }), { scheduledDelayMillis: 1000 }),
    ],
  });
  // Installs the context manager that carries a request's span across its awaits.
  provider.register();
  const tracer: Tracer = provider.getTracer('ensign', version);
  const spans = new WeakMap<IncomingMessage, Span>();
  const dbSystem = dialect === 'postgres' ? 'postgresql' : 'sqlite';
  /** A span for work that has finished, started `durationMs` ago, under the active span. */
  const finished = (
    name: string,
    durationMs: number,
    attributes: Record<string, string | number | boolean | string[]>,
  ) => {
    const end = Date.now();
    tracer.startSpan(name, { startTime: end - durationMs, attributes }).end(end);
  };

  return {
    listener: (listener) => (request, response) => {
      const span = tracer.startSpan(`${request.method} ${request.url}`, {
        kind: api.SpanKind.SERVER,
        attributes: { 'http.request.method': request.method ?? '', 'url.path': request.url ?? '' },
      });
      spans.set(request, span);
      response.once('finish', () => {
        span.setAttribute('http.response.status_code', response.statusCode);
        if (response.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      });
      const active = api.trace.setSpan(api.context.active(), span);
      // The body arrives in socket events, outside any context: their listeners are bound to the request's.
      api.context.bind(active, request);
      api.context.with(active, () => listener(request, response));
    },
    rpc: (service, method, run) => {
      const span = tracer.startSpan(`${service}/${method}`, {
        kind: api.SpanKind.SERVER,
        attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method },
      });
      return api.context.with(api.trace.setSpan(api.context.active(), span), run).then(
        (answer) => {
          span.setAttribute('rpc.grpc.status_code', 0);
          span.end();
          return answer;
        },
        (error: unknown) => {
          const code = (error as { code?: unknown }).code;
          span.setAttribute('rpc.grpc.status_code', typeof code === 'number' ? code : 13);
          span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
          throw error;
        },
      );
    },
    routed: (request, method, route) => {
      const span = spans.get(request);
      span?.updateName(`${method} ${route}`);
      span?.setAttribute('http.route', route);
    },
    evaluation: (namespaceKey, flagKey, outcome, startedMs) =>
      finished('evaluation', performance.now() - startedMs, {
        'flipt.namespace': namespaceKey,
        'flipt.flag': flagKey,
        ...(outcome
          ? {
              'flipt.match': outcome.match,
              'flipt.reason': outcome.reason,
              'flipt.value': outcome.value,
              'flipt.segments': outcome.segmentKeys,
            }
          : { 'flipt.error': true }),
      }),
    query: (event) =>
      finished('db.query', event.queryDurationMillis, {
        'db.system': dbSystem,
        'db.query.text': event.query.sql,
        ...(event.level === 'error' && { 'db.error': true }),
      }),
    shutdown: async () => {
      await provider.shutdown();
      // Another app in this process (the tests build several) may register its own.
      api.trace.disable();
      api.context.disable();
    },
  };
}
