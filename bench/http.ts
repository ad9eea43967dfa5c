// POST /evaluate/v1/variant under 64 connections (autocannon) against the real app, versus a bare
// node:http server answering a fixed JSON body, in the same run: 10 s of load on each, given in
// alternating rounds so that a load spike from elsewhere on the machine hits both alike. A third,
// minimal server (parse the body, answer JSON with a request id and timestamp) shows how much of
// the gap any evaluation server pays before evaluating anything; `ensign serve --workers 2` (from the
// build: run `npm run build` first) shows what a second process adds on this machine. Ensign runs
// twice, with metrics on (the default) and off, to show what counting every request costs.
import autocannon from 'autocannon';
import { EVALUATION_BODY, serveIfChild, startEnsignWorkers, startServer } from './support/servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 2;
const CONNECTIONS = 64;
/** Unmeasured load on each server first, so that the figures are of JIT-compiled code, not of its warm-up. */
const WARM_UP_SECONDS = 2;

interface Totals {
  requests: number;
  seconds: number;
  /** The server's CPU seconds over the rounds (one-process servers only). */
  cpuSeconds: number;
  p50: number[];
  p99: number[];
}

async function round(name: string, server: { url: string; cpuSeconds?(): number }, totals: Totals) {
  const url = server.url;
  const cpuBefore = server.cpuSeconds?.() ?? 0;
  const result = await autocannon({
    url: `${url}/evaluate/v1/variant`,
    method: 'POST',
    body: EVALUATION_BODY,
    connections: CONNECTIONS,
    duration: SECONDS / ROUNDS,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  totals.cpuSeconds += (server.cpuSeconds?.() ?? 0) - cpuBefore;
  totals.requests += result.requests.total;
  totals.seconds += SECONDS / ROUNDS;
  totals.p50.push(result.latency.p50);
  totals.p99.push(result.latency.p99);
}

/** CPU microseconds the server spent per request. */
const cpuPerRequest = (totals: Totals) => (1e6 * totals.cpuSeconds) / totals.requests;

function report(label: string, totals: Totals): number {
  const rate = totals.requests / totals.seconds;
  const cpu = totals.cpuSeconds > 0 ? `  ${cpuPerRequest(totals).toFixed(1)} µs CPU/req` : '';
  console.log(
    `${label.padEnd(28)} ${Math.round(rate).toLocaleString('en-US').padStart(8)} req/s${cpu}  p50 ${totals.p50.join('/')} ms  p99 ${totals.p99.join('/')} ms (per round)`,
  );
  return rate;
}

if (!(await serveIfChild())) {
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s on each server in ${ROUNDS} alternating rounds after ${WARM_UP_SECONDS} s of warm-up`,
  );
  const servers = {
    bare: await startServer('bare', import.meta.url),
    minimal: await startServer('minimal', import.meta.url),
    ensign: await startServer('ensign', import.meta.url),
    noMetrics: await startServer('ensign-no-metrics', import.meta.url),
    workers: await startEnsignWorkers(2),
  };
  const names = Object.keys(servers) as (keyof typeof servers)[];
  const totals = Object.fromEntries(
    names.map((name) => [name, { requests: 0, seconds: 0, cpuSeconds: 0, p50: [], p99: [] } as Totals]),
  );
  for (const name of names) {
    await autocannon({
      url: `${servers[name].url}/evaluate/v1/variant`,
      method: 'POST',
      body: EVALUATION_BODY,
      connections: CONNECTIONS,
      duration: WARM_UP_SECONDS,
    });
  }
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of names) await round(name, servers[name], totals[name]);
  }
  for (const name of names) servers[name].stop();
  const bare = report('bare node:http fixed JSON', totals.bare);
  const minimal = report('minimal parse + JSON answer', totals.minimal);
  const ensign = report('ensign /evaluate/v1/variant', totals.ensign);
  const noMetrics = report('ensign, metrics off', totals.noMetrics);
  const workers = report('ensign --workers 2', totals.workers);
  const percent = (rate: number) => `${((100 * rate) / bare).toFixed(1)}%`;
  const worstP99 = (totals: Totals) => `${Math.max(...totals.p99)} ms`;
  console.log(`minimal server: ${percent(minimal)} of bare node:http`);
  console.log(`ensign, one process: ${percent(ensign)} of bare node:http, p99 ${worstP99(totals.ensign)} worst round`);
  console.log(
    `metrics on: ${((100 * (noMetrics - ensign)) / noMetrics).toFixed(1)}% lower throughput than metrics off (budget: at most 5%); ${((100 * (cpuPerRequest(totals.ensign) - cpuPerRequest(totals.noMetrics))) / cpuPerRequest(totals.noMetrics)).toFixed(1)}% more CPU per request`,
  );
  console.log(
    `ensign --workers 2: ${percent(workers)} of bare node:http (budget: at least 70%), p99 ${worstP99(totals.workers)} worst round (budget: at most 10 ms)`,
  );
}
