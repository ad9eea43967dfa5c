// 304 answers per second of GET /internal/v1/evaluation/snapshot/namespace/default with a
// matching If-None-Match (what every polling client-side SDK sends), 64 connections.
import autocannon from 'autocannon';
import { serveIfChild, startServer } from './support/servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

if (!(await serveIfChild())) {
  const server = await startServer('ensign', import.meta.url);
  const url = `${server.url}/internal/v1/evaluation/snapshot/namespace/default`;
  const etag = (await fetch(url)).headers.get('etag')!;
  const result = await autocannon({ url, headers: { 'if-none-match': etag }, connections: 64, duration: SECONDS });
  server.stop();
  const notModified = result.statusCodeStats['304']?.count ?? 0;
  if (notModified !== result.requests.total)
    throw new Error(`only ${notModified} of ${result.requests.total} answers were 304`);
  console.log(
    `304 Not Modified: ${Math.round(result.requests.average).toLocaleString('en-US')} answers/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms (64 connections, ${SECONDS} s)`,
  );
}
