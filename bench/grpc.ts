// EvaluationService.Variant over gRPC beside POST /evaluate/v1/variant over HTTP, on the same Ensign
// process and the same data set (one variant flag, a constrained 50/50 rule), in alternating rounds
// so that a load spike from elsewhere on the machine hits both alike. HTTP is driven by autocannon
// (64 keep-alive connections); gRPC by a lean HTTP/2 load generator (bench/support/h2-load.ts:
// pre-encoded frames, 64 calls in flight over 4 connections, as gRPC clients multiplex) so that the
// client's cost does not hide the server's. The server's CPU time per request is the figure to compare
// ("per request"); the load average is printed, since other work on the machine skews all figures.
import { connect, type ClientHttp2Session } from 'node:http2';
import { join } from 'node:path';
import autocannon from 'autocannon';
import protobuf from 'protobufjs';
import { h2Load } from './support/h2-load.js';
import { addRound, emptyTotals, loadLine, medianP99, medianRatio, report } from './support/load.js';
import { EVALUATION_BODY, serveIfChild, startServer } from './support/servers.js';
import { atLeast, atMost } from './support/verdicts.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = 64;
const GRPC_SESSIONS = 4;
const WARM_UP_SECONDS = 2;
const PATH = '/flipt.evaluation.EvaluationService/Variant';

/** The gRPC request: the HTTP benchmark's body, encoded as flipt.evaluation.EvaluationRequest with its 5-byte frame. */
function grpcRequestFrame(): Buffer {
  const root = protobuf.loadSync(join(process.cwd(), 'proto/flipt/evaluation/evaluation.proto'));
  const type = root.lookupType('flipt.evaluation.EvaluationRequest');
  const message = Buffer.from(type.encode(type.fromObject(JSON.parse(EVALUATION_BODY))).finish());
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}

/** One call with node:http2's client, which decodes the trailers: the answer's grpc-status must be 0. */
async function checkOneCall(port: number): Promise<void> {
  const session: ClientHttp2Session = connect(`http://127.0.0.1:${port}`);
  try {
    const status = await new Promise<string>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': PATH,
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      let status = 'none';
      stream.on('response', (headers) => {
        if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
      });
      stream.on('trailers', (trailers) => {
        status = String(trailers['grpc-status']);
      });
      stream.on('data', () => {});
      stream.on('end', () => resolve(status));
      stream.on('error', reject);
      stream.end(grpcRequestFrame());
    });
    if (status !== '0') throw new Error(`gRPC check call: grpc-status ${status}`);
  } finally {
    session.close();
  }
}

/** Unary calls kept `CONNECTIONS` in flight over `GRPC_SESSIONS` connections for `seconds` (bench/support/h2-load.ts). */
const grpcLoad = (port: number, seconds: number) =>
  h2Load({
    port,
    path: PATH,
    message: grpcRequestFrame(),
    connections: GRPC_SESSIONS,
    inFlight: CONNECTIONS,
    seconds,
  });

async function httpLoad(url: string, seconds: number) {
  const result = await autocannon({
    url: `${url}/evaluate/v1/variant`,
    method: 'POST',
    body: EVALUATION_BODY,
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`HTTP: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99 };
}

if (!(await serveIfChild())) {
  console.log(
    `${CONNECTIONS} requests in flight, ${SECONDS} s on each API in ${ROUNDS} alternating rounds after ${WARM_UP_SECONDS} s of warm-up; one Ensign process serves both`,
  );
  const server = await startServer('ensign-grpc', import.meta.url);
  const grpcPort = server.grpcPort!;
  await checkOneCall(grpcPort);
  const loads = {
    http: (seconds: number) => httpLoad(server.url, seconds),
    grpc: (seconds: number) => grpcLoad(grpcPort, seconds),
  };
  const totals = { http: emptyTotals(), grpc: emptyTotals() };
  for (const load of Object.values(loads)) await load(WARM_UP_SECONDS);
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of ['http', 'grpc'] as const) {
      const cpuBefore = server.cpuSeconds();
      const seconds = SECONDS / ROUNDS;
      const result = await loads[name](seconds);
      addRound(totals[name], { ...result, seconds, cpuSeconds: server.cpuSeconds() - cpuBefore });
    }
  }
  server.stop();
  report('REST POST /evaluate/v1/variant', totals.http);
  report('gRPC EvaluationService/Variant', totals.grpc);
  console.log(`${loadLine()}; budgets from the median over the rounds of the two figures in the same round:`);
  const cpu = medianRatio(totals.grpc, totals.http, 'cpus');
  atMost(
    'gRPC Variant server CPU per request vs REST',
    cpu,
    1,
    `${(100 * cpu).toFixed(1)}% of REST's`,
    "at most REST's",
  );
  const rate = medianRatio(totals.grpc, totals.http, 'rates');
  atLeast('gRPC Variant throughput vs REST', rate, 1, `${(100 * rate).toFixed(1)}% of REST's`, "at least REST's");
  const [grpcP99, httpP99] = [medianP99(totals.grpc), medianP99(totals.http)];
  atMost(
    'gRPC Variant p99 vs REST',
    grpcP99 / httpP99,
    1,
    `${grpcP99} vs ${httpP99} ms (median of the rounds' p99)`,
    "at most REST's",
  );
}
