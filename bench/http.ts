// POST /evaluate/v1/variant under 64 connections (autocannon) against the real app, versus a bare
// node:http server answering a fixed JSON body, in the same run.
import autocannon from 'autocannon';
import { EVALUATION_BODY, serveIfChild, startServer, type ServerName } from './support/servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;

async function load(name: ServerName) {
  const server = await startServer(name, import.meta.url);
  const result = await autocannon({ url: `${server.url}/evaluate/v1/variant`, method: 'POST', body: EVALUATION_BODY, connections: CONNECTIONS, duration: SECONDS });
  server.stop();
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const label = name === 'ensign' ? 'ensign /evaluate/v1/variant' : 'bare node:http fixed JSON';
  console.log(`${label.padEnd(28)} ${Math.round(result.requests.average).toLocaleString('en-US').padStart(8)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`);
  return result;
}

if (!(await serveIfChild())) {
  console.log(`${CONNECTIONS} connections, ${SECONDS} s each`);
  const bare = await load('bare');
  const ensign = await load('ensign');
  const ratio = (100 * ensign.requests.average) / bare.requests.average;
  console.log(`ratio ${ratio.toFixed(1)}% of bare node:http (budget: at least 70%); ensign p99 ${ensign.latency.p99} ms (budget: at most 10 ms)`);
}
