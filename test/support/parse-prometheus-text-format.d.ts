declare module 'parse-prometheus-text-format' {
  /** prom2json's shape: counters and gauges carry `value`, histograms `buckets`, `count` and `sum`. */
  export interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: {
      labels?: Record<string, string>;
      value?: string;
      count?: string;
      sum?: string;
      buckets?: Record<string, string>;
    }[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
