import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';

/** A `/metrics` answer, parsed by a real Prometheus text parser. */
export class Scrape {
  readonly families: MetricFamily[];

  constructor(private readonly text: string) {
    this.families = parsePrometheusTextFormat(text);
  }

  static async of(url: string, init?: RequestInit): Promise<Scrape> {
    const response = await fetch(url, init);
    if (response.status !== 200) throw new Error(`GET ${url} → ${response.status}`);
    if (!response.headers.get('content-type')?.startsWith('text/plain; version=0.0.4'))
      throw new Error(`GET ${url}: not the Prometheus text format (${response.headers.get('content-type')})`);
    return new Scrape(await response.text());
  }

  family(name: string): MetricFamily | undefined {
    return this.families.find((family) => family.name === name);
  }

  /** The value of a counter or gauge (a histogram's count) whose labels include `labels`; 0 when absent. */
  value(name: string, labels: Record<string, string> = {}): number {
    const family = this.family(name);
    const metrics = family?.type === 'HISTOGRAM' ? this.counts(name) : (family?.metrics ?? []);
    const samples = metrics.filter((sample) =>
      Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
    );
    return samples.reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);
  }

  /**
   * A histogram's `_count` series, one per label set. The parser folds a histogram's label sets into
   * one sample, so its count lines are parsed on their own, as a family of their own.
   */
  private counts(name: string): MetricFamily['metrics'] {
    const lines = this.text.split('\n').filter((line) => line.startsWith(`${name}_count`));
    return parsePrometheusTextFormat(`${lines.join('\n')}\n`)[0]?.metrics ?? [];
  }
}
