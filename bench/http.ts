// POST /evaluate/v1/variant under 64 connections (autocannon) against the real app, versus a bare
// node:http server answering a fixed JSON body, in the same run: 10 s of load on each, given in
// alternating rounds so that a load spike from elsewhere on the machine hits both alike.
import autocannon from 'autocannon';
import { EVALUATION_BODY, serveIfChild, startServer, type ServerName } from './support/servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 2;
const CONNECTIONS = 64;

interface Totals {
  requests: number;
  seconds: number;
  p50: number[];
  p99: number[];
}

async function round(name: ServerName, url: string, totals: Totals) {
  const result = await autocannon({ url: `${url}/evaluate/v1/variant`, method: 'POST', body: EVALUATION_BODY, connections: CONNECTIONS, duration: SECONDS / ROUNDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  totals.requests += result.requests.total;
  totals.seconds += SECONDS / ROUNDS;
  totals.p50.push(result.latency.p50);
  totals.p99.push(result.latency.p99);
}

function report(label: string, totals: Totals): number {
  const rate = totals.requests / totals.seconds;
  console.log(`${label.padEnd(28)} ${Math.round(rate).toLocaleString('en-US').padStart(8)} req/s  p50 ${totals.p50.join('/')} ms  p99 ${totals.p99.join('/')} ms (per round)`);
  return rate;
}

if (!(await serveIfChild())) {
  console.log(`${CONNECTIONS} connections, ${SECONDS} s on each server in ${ROUNDS} alternating rounds`);
  const servers = { bare: await startServer('bare', import.meta.url), ensign: await startServer('ensign', import.meta.url) };
  const totals: Record<ServerName, Totals> = {
    bare: { requests: 0, seconds: 0, p50: [], p99: [] },
    ensign: { requests: 0, seconds: 0, p50: [], p99: [] },
  };
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of ['bare', 'ensign'] as const) await round(name, servers[name].url, totals[name]);
  }
  servers.bare.stop();
  servers.ensign.stop();
  const bare = report('bare node:http fixed JSON', totals.bare);
  const ensign = report('ensign /evaluate/v1/variant', totals.ensign);
  console.log(
    `ratio ${((100 * ensign) / bare).toFixed(1)}% of bare node:http (budget: at least 70%); ensign p99 ${Math.max(...totals.ensign.p99)} ms worst round (budget: at most 10 ms)`,
  );
}
