// POST /evaluate/v1/variant under 64 connections (autocannon) against the real app, versus a bare
// node:http server answering a fixed JSON body, in the same run: 10 s of load on each, given in
// alternating rounds so that a load spike from elsewhere on the machine hits both alike. A third,
// minimal server (parse the body, answer JSON with a request id and timestamp) shows how much of
// the gap any evaluation server pays before evaluating anything; `ensign serve --workers 2` (from the
// build: run `npm run build` first) shows what a second process adds on this machine. Ensign runs
// twice, with metrics on (the default) and off, to show what counting every request costs.
import { budget, cpuPerRequest, emptyTotals, loadLine, report, round, type Totals, worstP99 } from './support/load.js';
import { EVALUATION_BODY, serveIfChild, startEnsignWorkers, startServer } from './support/servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 2;
const CONNECTIONS = 64;
/** Unmeasured load on each server first, so that the figures are of JIT-compiled code, not of its warm-up. */
const WARM_UP_SECONDS = 2;
const LOAD = { url: '/evaluate/v1/variant', method: 'POST' as const, body: EVALUATION_BODY, connections: CONNECTIONS };

if (!(await serveIfChild())) {
  console.log(`${loadLine()} at the start`);
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
  const totals = Object.fromEntries(names.map((name) => [name, emptyTotals()])) as Record<
    (typeof names)[number],
    Totals
  >;
  for (const name of names) await round(name, servers[name], { ...LOAD, duration: WARM_UP_SECONDS }, emptyTotals());
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of names) await round(name, servers[name], { ...LOAD, duration: SECONDS / ROUNDS }, totals[name]);
  }
  for (const name of names) servers[name].stop();
  const bare = report('bare node:http fixed JSON', totals.bare);
  const minimal = report('minimal parse + JSON answer', totals.minimal);
  const ensign = report('ensign /evaluate/v1/variant', totals.ensign);
  const noMetrics = report('ensign, metrics off', totals.noMetrics);
  const workers = report('ensign --workers 2', totals.workers);
  const percent = (rate: number, of: number) => `${((100 * rate) / of).toFixed(1)}%`;
  const cpu = (name: keyof typeof totals) => cpuPerRequest(totals[name]);
  console.log(`minimal server: ${percent(minimal, bare)} of bare node:http`);
  budget(
    'ensign, one process',
    `${percent(ensign, minimal)} of the minimal server's throughput (${percent(cpu('minimal'), cpu('ensign'))} by CPU per request)`,
    'at least 90%',
    ensign >= 0.9 * minimal,
  );
  const metricsCost = (noMetrics - ensign) / noMetrics;
  budget(
    'metrics on',
    `${(100 * metricsCost).toFixed(1)}% lower throughput than metrics off; ${percent(cpu('ensign') - cpu('noMetrics'), cpu('noMetrics'))} more CPU per request`,
    'at most 3%',
    metricsCost <= 0.03,
  );
  budget('ensign --workers 2', `${percent(workers, bare)} of bare node:http`, 'at least 75%', workers >= 0.75 * bare);
  budget(
    'ensign --workers 2 p99',
    `${worstP99(totals.workers)} ms against bare's ${worstP99(totals.bare)} ms (worst rounds)`,
    "at most 1.5x bare's",
    worstP99(totals.workers) <= 1.5 * worstP99(totals.bare),
  );
  console.log(`${loadLine()} at the end`);
}
