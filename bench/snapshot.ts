// The snapshot endpoint, GET /internal/v1/evaluation/snapshot/namespace/{ns}:
// - 304 answers per second with a matching If-None-Match (what every polling client-side SDK sends),
//   64 connections;
// - the first request on a namespace of BENCH_FLAGS (100,000) flags (test/support/many-flags.ts): its
//   time and the server's CPU seconds (load, compile, serialise; CPU is steadier than time on a loaded
//   machine), its bytes, later requests (cached bytes), and the server's resident memory before, after
//   and at its peak (VmHWM), the server alone in a child process;
// - the parts of that first build, in this process: reading the namespace (server/evaluation/loader.ts),
//   compiling it for the engine (domain/evaluation/compile.ts) and serialising it, CPU milliseconds each.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { compileSnapshot } from '../domain/evaluation/index.js';
import { buildApp } from '../server/app.js';
import { defaultConfig } from '../server/config/index.js';
import { openDatabase } from '../server/db/index.js';
import { loadNamespace } from '../server/evaluation/loader.js';
import { seedMany } from '../test/support/many-flags.js';
import { cpuSecondsOf, serveIfChild, startServer } from './support/servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const FLAGS = Number(process.env.BENCH_FLAGS ?? 100_000);
const SCALE_CHILD = 'snapshot-scale';
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

async function notModifiedFigures() {
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

async function firstSnapshotFigures() {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-snapshot-'));
  const url = `file:${join(dir, 'ensign.db')}`;
  try {
    await seedMany(url, { flags: FLAGS });
    const child = fork(fileURLToPath(import.meta.url), [SCALE_CHILD, url], { stdio: 'inherit' });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.once('message', (message) => resolve(message as number));
        child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const pid = child.pid as number;
      const path = `http://127.0.0.1:${port}/internal/v1/evaluation/snapshot/namespace/default`;
      const before = memoryOf(pid, 'VmRSS');
      const cpuBefore = cpuSecondsOf(pid);
      let started = performance.now();
      const first = await fetch(path);
      const bytes = (await first.arrayBuffer()).byteLength;
      const cold = performance.now() - started;
      const after = memoryOf(pid, 'VmRSS');
      const cpu = cpuSecondsOf(pid) - cpuBefore;
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        started = performance.now();
        await (await fetch(path)).arrayBuffer();
        times.push(performance.now() - started);
      }
      console.log(
        `first snapshot of ${FLAGS.toLocaleString('en-US')} flags: ${mb(bytes)} in ${cold.toFixed(0)} ms, ${cpu.toFixed(2)} CPU s (load, compile, serialise), then ${times.map((t) => t.toFixed(0)).join('/')} ms; server RSS ${mb(before)} → ${mb(after)}, peak ${mb(memoryOf(pid, 'VmHWM'))}`,
      );
    } finally {
      child.kill();
    }
    await partsOfTheBuild(url);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU milliseconds of `work` in this process. */
async function cpuMs<T>(work: () => T | Promise<T>): Promise<[T, number]> {
  const started = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(started);
  return [result, (user + system) / 1000];
}

async function partsOfTheBuild(url: string) {
  const database = await openDatabase(url);
  try {
    const [loaded, load] = await cpuMs(() => loadNamespace(database, 'default'));
    const [, compile] = await cpuMs(() => compileSnapshot(loaded.document));
    const [, serialise] = await cpuMs(() => Buffer.from(JSON.stringify(loaded.document)));
    console.log(
      `  of which, in CPU ms: read ${load.toFixed(0)}, compile ${compile.toFixed(0)}, serialise ${serialise.toFixed(0)}`,
    );
  } finally {
    await database.close();
  }
}

/** In the child: the server on the seeded database, listening; reports its port. */
async function serveSeeded(url: string) {
  const config = defaultConfig();
  config.db.url = url;
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!((app.server.address() as { port: number }).port);
}

if (process.argv[2] === SCALE_CHILD) await serveSeeded(process.argv[3]);
else if (!(await serveIfChild())) {
  await notModifiedFigures();
  await firstSnapshotFigures();
}
