import { Counter, type Metric, type Registry } from 'prom-client';

/**
 * Counters and histograms whose series are plain numbers, counted without prom-client on the hot
 * path: prom-client's labelled children hash their label set on every `inc()` and `observe()`,
 * which cost about a sixth of the evaluation throughput (bench/http). The caller keeps the series
 * it counts into; prom-client reads them when `/metrics` is scraped, under the same names,
 * labels and text (and the same JSON, which `--workers N` sums in the primary).
 */

/** One labelled series of a counter. */
export class CountSeries {
  value = 0;
  constructor(readonly labels: Record<string, string>) {}

  inc(by = 1): void {
    this.value += by;
  }
}

/** A counter whose series are CountSeries, handed to a prom-client Counter when scraped (its collect hook). */
export class CounterFamily {
  private readonly all: CountSeries[] = [];

  constructor(registry: Registry, config: { name: string; help: string; labelNames?: string[] }) {
    const all = this.all;
    new Counter({
      ...config,
      registers: [registry],
      collect() {
        // A labelled series not counted yet is not shown, as with prom-client (reset() shows an unlabelled one as 0).
        this.reset();
        for (const series of all) if (series.value > 0) this.inc(series.labels, series.value);
      },
    });
  }

  /** A new series; the caller keeps it and counts into it. */
  series(labels: Record<string, string> = {}): CountSeries {
    const series = new CountSeries(labels);
    this.all.push(series);
    return series;
  }
}

/** One labelled series of a histogram: a count per bucket (the last one is +Inf), their sum and count. */
export class HistogramSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]) bucket++;
    this.counts[bucket]++;
    this.sum += value;
    this.count++;
  }
}

/**
 * A histogram whose series are HistogramSeries, registered as a metric of its own: prom-client's
 * Histogram offers no way to hand it bucket counts, so `get()` answers what its `get()` would,
 * cumulative `_bucket` values with an `le` label, then `_sum` and `_count`.
 */
export class HistogramFamily {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: HistogramSeries[] = [];

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  series(labels: Record<string, string> = {}): HistogramSeries {
    const series = new HistogramSeries(labels, this.bounds);
    this.all.push(series);
    return series;
  }

  /** What prom-client's registry reads: for the text it serves, and for the JSON workers send the primary. */
  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.all) {
      // A series nothing was observed in yet is not shown, as with prom-client.
      if (count === 0) continue;
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += counts[i];
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: bucket });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.all) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
