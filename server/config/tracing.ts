import * as v from 'valibot';
import { ConfigError } from './errors.js';
import { bool, defineSection, num, opt, str } from './section.js';

export interface TracingConfig {
  /** Spans sent to an OTLP/HTTP collector; `endpoint` is the full traces URL. */
  tracing: { enabled: boolean; endpoint: string; headers: Record<string, string>; samplingRatio: number };
}

export const tracingSection = defineSection({
  key: 'tracing',
  schema: v.strictObject({
    enabled: opt(bool),
    exporter: opt(v.picklist(['otlp'], 'must be "otlp" (the Jaeger and Zipkin exporters are not supported)')),
    sampling_ratio: opt(v.pipe(num, v.minValue(0, 'must be from 0 to 1'), v.maxValue(1, 'must be from 0 to 1'))),
    otlp: opt(v.strictObject({ endpoint: opt(str), headers: opt(v.record(v.string(), v.string())) })),
  }),
  defaults: { enabled: false, exporter: 'otlp', sampling_ratio: 1, otlp: { endpoint: 'http://localhost:4318' } },
  resolve: (settings): TracingConfig => ({
    tracing: {
      enabled: settings.enabled,
      endpoint: tracesUrl(settings.otlp.endpoint),
      headers: settings.otlp.headers ?? {},
      samplingRatio: settings.sampling_ratio,
    },
  }),
});

/** Flipt's OTLP endpoint may be `host:port`; the exporter posts to `/v1/traces` unless a path is given. */
function tracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`);
  } catch {
    throw new ConfigError(`tracing.otlp.endpoint must be a URL such as http://localhost:4318 (got "${endpoint}")`);
  }
  if (url.pathname === '/') url.pathname = '/v1/traces';
  return url.toString();
}
