// One gRPC call without a token whose 2 MB message arrives in 64-byte DATA frames, against Ensign (gRPC on,
// in a child process): the server's CPU for the call and the worst `/health` latency while it is read.
// The front must copy what it receives once, so small frames cost about what large ones do.
import { connect } from 'node:http2';
import { startServer, serveIfChild } from './support/servers.js';

const MESSAGE_BYTES = 2 * 1024 * 1024;

async function run(frameBytes: number): Promise<void> {
  const server = await startServer('ensign-grpc', import.meta.url);
  try {
    let worstHealthMs = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const started = performance.now();
        await (await fetch(`${server.url}/health`)).arrayBuffer();
        worstHealthMs = Math.max(worstHealthMs, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const cpuBefore = server.cpuSeconds();
    const session = connect(`http://127.0.0.1:${server.grpcPort}`);
    const status = await new Promise<string>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/flipt.evaluation.EvaluationService/Variant',
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      let grpcStatus = 'none';
      stream.on('response', (headers) => {
        if (headers['grpc-status'] !== undefined) grpcStatus = String(headers['grpc-status']);
      });
      stream.on('trailers', (trailers) => {
        grpcStatus = String(trailers['grpc-status']);
      });
      stream.on('data', () => {});
      stream.on('close', () => resolve(grpcStatus));
      stream.on('error', reject);
      const body = Buffer.alloc(5 + MESSAGE_BYTES);
      body.writeUInt32BE(MESSAGE_BYTES, 1);
      (async () => {
        for (let offset = 0; offset < body.length && !stream.closed; offset += frameBytes) {
          // One write at a time, so each goes out as a DATA frame of its own.
          await new Promise((done) => stream.write(body.subarray(offset, offset + frameBytes), done));
        }
        if (!stream.closed) stream.end();
      })().catch(() => {});
    });
    const cpu = server.cpuSeconds() - cpuBefore;
    polling = false;
    await poll;
    session.close();
    console.log(
      `2 MB in ${frameBytes}-byte frames, no token: status ${status}, server CPU ${cpu.toFixed(2)} s, worst /health ${worstHealthMs.toFixed(1)} ms`,
    );
  } finally {
    server.stop();
  }
}

if (!(await serveIfChild())) {
  await run(64);
  await run(16 * 1024);
}
