// POST /evaluate/v1/variant under 64 connections (autocannon) against the real app, versus a bare
// node:http server answering a fixed JSON body, in the same run: 12 s of load on each, given in six
// alternating rounds; each budget compares two servers round by round and takes the median, so that a
// load spike from elsewhere on the machine moves one round, not the figure. A third,
// minimal server (parse the body, answer JSON with a request id and timestamp) shows how much of
// the gap any evaluation server pays before evaluating anything; `ensign serve --workers 2` (from the
// build: run `npm run build` first) shows what a second process adds on this machine. Ensign runs
// twice, with metrics on (the default) and off, to show what counting every request costs.
import {
  emptyTotals,
  loadLine,
  medianP99,
  medianRatio,
  report,
  round,
  tailOverQueue,
  type Totals,
} from './support/load.js';
import { atLeast, atMost } from './support/verdicts.js';
import { EVALUATION_BODY, serveIfChild, startEnsignWorkers, startServer } from './support/servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
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
  report('ensign /evaluate/v1/variant', totals.ensign);
  report('ensign, metrics off', totals.noMetrics);
  report('ensign --workers 2', totals.workers);
  const percent = (ratio: number) => `${(100 * ratio).toFixed(1)}%`;
  console.log(`minimal server: ${percent(minimal / bare)} of bare node:http`);
  console.log('budgets from the median over the rounds of the two figures in the same round:');
  const oneProcess = medianRatio(totals.ensign, totals.minimal, 'rates');
  atLeast(
    'ensign, one process',
    oneProcess,
    0.9,
    `${percent(oneProcess)} of the minimal server's throughput (${percent(1 / medianRatio(totals.ensign, totals.minimal, 'cpus'))} by CPU per request)`,
    'at least 90%',
  );
  const metricsCost = 1 - medianRatio(totals.ensign, totals.noMetrics, 'rates');
  atMost(
    'metrics on',
    metricsCost,
    0.03,
    `${percent(metricsCost)} lower throughput than metrics off; ${percent(medianRatio(totals.ensign, totals.noMetrics, 'cpus') - 1)} more CPU per request`,
    'at most 3%',
  );
  const workersShare = medianRatio(totals.workers, totals.bare, 'rates');
  atLeast('ensign --workers 2', workersShare, 0.75, `${percent(workersShare)} of bare node:http`, 'at least 75%');
  // As in bench/sync.ts: the latency budget is on the tail beyond the queue the throughput implies.
  const [workersTail, bareTail] = [tailOverQueue(totals.workers, CONNECTIONS), tailOverQueue(totals.bare, CONNECTIONS)];
  atMost(
    'ensign --workers 2 p99 beyond its queue',
    workersTail / bareTail,
    1.5,
    `p99 ${medianP99(totals.workers)} ms, ${workersTail.toFixed(2)}x the ${((1000 * CONNECTIONS * totals.workers.seconds) / totals.workers.requests).toFixed(1)} ms its throughput implies; bare's ${medianP99(totals.bare)} ms, ${bareTail.toFixed(2)}x`,
    "at most 1.5x bare's ratio",
  );
  console.log(`${loadLine()} at the end`);
}
