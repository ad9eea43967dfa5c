// Load rounds with autocannon and the lines the HTTP benchmarks print: throughput, CPU per request,
// latency per round, and each budget as met or not met.
import { loadavg } from 'node:os';
import autocannon, { type Options } from 'autocannon';

export interface Totals {
  requests: number;
  seconds: number;
  /** The server's CPU seconds over the rounds (one-process servers only). */
  cpuSeconds: number;
  p50: number[];
  p99: number[];
  /** Requests per second in each round. */
  rates: number[];
  /** The server's CPU microseconds per request in each round (one-process servers only). */
  cpus: number[];
}

export const emptyTotals = (): Totals => ({
  requests: 0,
  seconds: 0,
  cpuSeconds: 0,
  p50: [],
  p99: [],
  rates: [],
  cpus: [],
});

export interface Target {
  url: string;
  cpuSeconds?(): number;
}

/** One load of `seconds` on the target, added to its totals; any non-2xx answer (other than `expect`) fails the benchmark. */
export async function round(
  name: string,
  target: Target,
  options: Omit<Options, 'url'> & { url?: string },
  totals: Totals,
  expectStatus = 200,
): Promise<void> {
  const cpuBefore = target.cpuSeconds?.() ?? 0;
  const result = await autocannon({ ...options, url: target.url + (options.url ?? '') });
  const unexpected = Object.entries(result.statusCodeStats)
    .filter(([status]) => Number(status) !== expectStatus)
    .reduce((sum, [, { count }]) => sum + count, 0);
  if (unexpected > 0 || result.errors > 0)
    throw new Error(`${name}: ${unexpected} answers other than ${expectStatus}, ${result.errors} errors`);
  addRound(totals, {
    requests: result.requests.total,
    seconds: options.duration as number,
    cpuSeconds: (target.cpuSeconds?.() ?? 0) - cpuBefore,
    p50: result.latency.p50,
    p99: result.latency.p99,
  });
}

/** What one round of load gave: its requests, its length, the server's CPU seconds and the latency percentiles (ms). */
export interface RoundFigures {
  requests: number;
  seconds: number;
  cpuSeconds: number;
  p50: number;
  p99: number;
}

/** Adds a round to the totals, and its own throughput and CPU per request to the per-round figures. */
export function addRound(totals: Totals, { requests, seconds, cpuSeconds, p50, p99 }: RoundFigures): void {
  totals.requests += requests;
  totals.seconds += seconds;
  totals.cpuSeconds += cpuSeconds;
  totals.p50.push(p50);
  totals.p99.push(p99);
  totals.rates.push(requests / seconds);
  totals.cpus.push((1e6 * cpuSeconds) / requests);
}

/** CPU microseconds the server spent per request. */
export const cpuPerRequest = (totals: Totals) => (1e6 * totals.cpuSeconds) / totals.requests;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * The median over the rounds of `a`'s figure divided by `b`'s in the same round (`rates`: throughput,
 * `cpus`: CPU per request). Rounds alternate between the servers, so each pair was measured within
 * seconds of each other: a burst of load from elsewhere on the machine moves one pair, not the median.
 */
export const medianRatio = (a: Totals, b: Totals, figure: 'rates' | 'cpus') =>
  median(a[figure].map((value, i) => value / b[figure][i]));

/** The median of the rounds' p99s: with many short rounds, one round slowed by the machine's other load moves it less than the worst. */
export const medianP99 = (totals: Totals) => median(totals.p99);

/**
 * The median round's p99 over the wait its own throughput implies. Under a closed loop of `connections`,
 * every server's mean latency is about connections / throughput (Little's law), so a p99 compared with
 * bare's p99 only restates the throughput ratio (twice bare's p99 is about half its throughput). What a
 * latency budget can add is the tail beyond that queue: this ratio, compared with bare's own.
 */
export const tailOverQueue = (totals: Totals, connections: number) =>
  medianP99(totals) / ((1000 * connections * totals.seconds) / totals.requests);

/** Prints the server's line; returns its requests per second. */
export function report(label: string, totals: Totals): number {
  const rate = totals.requests / totals.seconds;
  const cpu = totals.cpuSeconds > 0 ? `  ${cpuPerRequest(totals).toFixed(1)} µs CPU/req` : '';
  console.log(
    `${label.padEnd(30)} ${Math.round(rate).toLocaleString('en-US').padStart(8)} req/s${cpu}  p50 ${totals.p50.join('/')} ms  p99 ${totals.p99.join('/')} ms (per round)`,
  );
  return rate;
}

/** The machine's load averages: the figures are comparable only between runs on a similarly loaded machine. */
export const loadLine = () =>
  `load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(', ')} on this machine`;
