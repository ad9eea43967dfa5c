// OFREP against the real app under 64 connections (autocannon), Ensign in a child process:
// - single-flag evaluations, POST /ofrep/v1/evaluate/flags/{key}, against POST /evaluate/v1/variant
//   on the same flag and context in alternating rounds (budget: OFREP at least 90% of it);
// - bulk evaluation of the namespace's 100 flags: p50/p99 latency, and 304 answers per second to
//   If-None-Match while nothing changes (a web provider's polling).
import autocannon from 'autocannon';
import { EVALUATION_BODY, serveIfChild, startServer } from './support/servers.js';
import { atLeast } from './support/verdicts.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = 2;
const CONNECTIONS = 64;
const WARM_UP_SECONDS = 2;
/** flag_001 of the data set and these many more make the 100 flags of the bulk evaluation. */
const EXTRA_FLAGS = 99;

const { context: evaluationContext, entityId } = JSON.parse(EVALUATION_BODY) as {
  context: Record<string, string>;
  entityId: string;
};
const OFREP_BODY = JSON.stringify({ context: { targetingKey: entityId, ...evaluationContext } });

interface Load {
  path: string;
  body: string;
  headers?: Record<string, string>;
  /** The status every answer must have. */
  status: 200 | 304;
}

async function measure(url: string, load: Load, seconds: number) {
  const result = await autocannon({
    url: `${url}${load.path}`,
    method: 'POST',
    body: load.body,
    headers: { 'content-type': 'application/json', ...load.headers },
    connections: CONNECTIONS,
    duration: seconds,
  });
  const answered = result.statusCodeStats[load.status]?.count ?? 0;
  if (result.errors > 0 || answered !== result.requests.total) {
    throw new Error(`${load.path}: ${result.requests.total - answered} answers other than ${load.status}`);
  }
  return { rate: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99 };
}

async function seedBulkFlags(url: string): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`${path}: ${await response.text()}`);
  };
  const flags = '/api/v1/namespaces/default/flags';
  for (let i = 0; i < EXTRA_FLAGS; i++) {
    const key = `bulk_${String(i).padStart(3, '0')}`;
    await post(flags, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: i % 2 === 0 });
    await post(`${flags}/${key}/rollouts`, { rank: 1, segment: { segmentKey: 'premium', value: i % 3 === 0 } });
    await post(`${flags}/${key}/rollouts`, { rank: 2, threshold: { percentage: i, value: true } });
  }
}

const format = (rate: number) => Math.round(rate).toLocaleString('en-US').padStart(8);

if (!(await serveIfChild())) {
  const ensign = await startServer('ensign', import.meta.url);
  await seedBulkFlags(ensign.url);
  const variant: Load = { path: '/evaluate/v1/variant', body: EVALUATION_BODY, status: 200 };
  const single: Load = { path: '/ofrep/v1/evaluate/flags/flag_001', body: OFREP_BODY, status: 200 };
  const bulk: Load = { path: '/ofrep/v1/evaluate/flags', body: OFREP_BODY, status: 200 };
  const first = await fetch(`${ensign.url}${bulk.path}`, { method: 'POST', body: bulk.body });
  const { flags } = (await first.json()) as { flags: unknown[] };
  if (flags.length !== EXTRA_FLAGS + 1) throw new Error(`the bulk evaluation answered ${flags.length} flags`);
  const unchanged: Load = { ...bulk, headers: { 'if-none-match': first.headers.get('etag')! }, status: 304 };

  console.log(
    `${CONNECTIONS} connections; ${SECONDS} s on each load in ${ROUNDS} alternating rounds after ${WARM_UP_SECONDS} s of warm-up`,
  );
  const loads = { variant, single, bulk, unchanged };
  type Name = keyof typeof loads;
  const names = Object.keys(loads) as Name[];
  const totals = {} as Record<Name, { rate: number; p50: number[]; p99: number[] }>;
  for (const name of names) totals[name] = { rate: 0, p50: [], p99: [] };
  for (const name of names) await measure(ensign.url, loads[name], WARM_UP_SECONDS);
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of names) {
      const result = await measure(ensign.url, loads[name], SECONDS / ROUNDS);
      totals[name].rate += result.rate / ROUNDS;
      totals[name].p50.push(result.p50);
      totals[name].p99.push(result.p99);
    }
  }
  ensign.stop();

  const line = (label: string, name: Name) =>
    console.log(
      `${label.padEnd(40)} ${format(totals[name].rate)} req/s  p50 ${totals[name].p50.join('/')} ms  p99 ${totals[name].p99.join('/')} ms (per round)`,
    );
  line('/evaluate/v1/variant', 'variant');
  line('OFREP single flag', 'single');
  line(`OFREP bulk, ${EXTRA_FLAGS + 1} flags`, 'bulk');
  line(`OFREP bulk, ${EXTRA_FLAGS + 1} flags, 304 Not Modified`, 'unchanged');
  const ratio = (100 * totals.single.rate) / totals.variant.rate;
  atLeast('OFREP single flag / /evaluate/v1/variant', ratio, 90, `${ratio.toFixed(1)}%`, 'at least 90%');
}
