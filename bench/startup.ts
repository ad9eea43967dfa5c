// Cold start of `ensign serve` (process spawn to the first /health 200) and its idle RSS, with gRPC on
// (as by default), on a fresh temporary database and on one already migrated, and with gRPC off for
// reference, next to a bare node:http server started and polled the same way in alternating rounds.
// Budget (support/budgets.ts): at most 3x the bare start, fresh and migrated database, gRPC on. Needs `npm run build` first. The CPU time the
// process had used when /health first answered is printed too: on a loaded machine it stays steady
// while wall-clock times swing. So are the steps of Ensign's start, as its "ensign is ready" line gives them.
// For reference, no budget: a floor, Fastify with libSQL and one /health route (select 1), bundled into one
// file and started with Node's compile cache as dist/cli.js is, which shows what the framework and the
// database driver alone cost against the bare start.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { BUDGETS } from './support/budgets.js';
import { loadLine } from './support/load.js';
import { atMost } from './support/verdicts.js';

const RUNS = 7;
/** The first of the ports the runs use (two a run): STARTUP_BENCH_PORT, when others are taken. */
const PORT = Number(process.env.STARTUP_BENCH_PORT ?? 18_400);

/** A bare node:http server on the port, started with `node -e`. */
const bareServer = (port: number) =>
  `require('node:http').createServer((q, s) => s.end('{"status":"SERVING"}')).listen(${port}, '127.0.0.1')`;

/** The floor's entry: Fastify and libSQL with one route, on the port and database file it is given. */
const FLOOR_ENTRY = `
import Fastify from 'fastify';
import Database from 'libsql';
const [port, path] = process.argv.slice(2);
const db = new Database(path);
const app = Fastify();
app.get('/health', async () => (db.prepare('select 1').get(), { status: 'SERVING' }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
// as Ensign does: an orderly exit, which writes the compile cache
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;
const FLOOR = '.tmp/bench/startup-floor.mjs';
/** The floor's compile cache, as Ensign keeps its own (server/main.ts). */
const FLOOR_COMPILE_CACHE = resolve('.tmp/bench/startup-floor-cache');

const SERVERS = ['ensign fresh db', 'ensign migrated db', 'ensign no gRPC', 'fastify floor', 'bare'] as const;
type Server = (typeof SERVERS)[number];
/** The servers the budget applies to. */
const BUDGETED: Server[] = ['ensign fresh db', 'ensign migrated db'];

interface Run {
  coldStartMs: number;
  cpuMs: number;
  rssMiB: number;
  /** Ensign's start, step by step, in ms (server/logging.ts startupSteps). */
  steps?: Record<string, number>;
}

/** User and system CPU milliseconds a process has used so far (Linux: /proc/PID/stat, clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function once(server: Server, run: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-startup-'));
  const port = PORT + (run * SERVERS.length + SERVERS.indexOf(server)) * 2;
  const db = `file:${join(dir, 'x.db')}`;
  if (server === 'ensign migrated db') spawnSync(process.execPath, ['dist/cli.js', 'migrate', '--db', db]);
  const args =
    server === 'bare'
      ? ['-e', bareServer(port)]
      : server === 'fastify floor'
        ? [FLOOR, String(port), join(dir, 'x.db')]
        : ['dist/cli.js', 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', db];
  // gRPC on the next port (another server on the machine may hold Flipt's 9000), or off.
  const grpcPort = server === 'ensign no gRPC' ? '0' : String(port + 1);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      ...process.env,
      FLIPT_SERVER_GRPC_PORT: grpcPort,
      ...(server === 'fastify floor' && { NODE_COMPILE_CACHE: FLOOR_COMPILE_CACHE }),
    },
  });
  let log = '';
  child.stdout.on('data', (chunk) => {
    log += chunk;
  });
  let coldStartMs = 0;
  let cpuMs = 0;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) {
        coldStartMs = performance.now() - started;
        cpuMs = cpuMsOf(child.pid!);
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 2000));
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
  const ready = log.split('\n').find((line) => line.includes('"ensign is ready"'));
  const steps = ready ? (JSON.parse(ready) as { startup?: Record<string, number> }).startup : undefined;
  return { coldStartMs, cpuMs, rssMiB: rssKiB / 1024, steps };
}

// Bundled as dist/cli.js is: one ES module, CommonJS dependencies given require(), Fastify's JSON Schema
// compilers and libSQL's native package left out (tsup.config.ts).
await esbuild.build({
  stdin: { contents: FLOOR_ENTRY, resolveDir: process.cwd(), loader: 'js' },
  outfile: FLOOR,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'libsql'],
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});

const results = Object.fromEntries(SERVERS.map((server) => [server, [] as Run[]])) as Record<Server, Run[]>;
for (let run = 0; run < RUNS; run++) {
  for (const server of SERVERS) results[server].push(await once(server, run));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const server of SERVERS) {
  const cold = results[server].map((r) => r.coldStartMs);
  console.log(
    `${server.padEnd(18)} cold start (spawn -> first /health 200), ${RUNS} runs: median ${median(cold).toFixed(0)} ms, min ${Math.min(...cold).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms; CPU by then ${median(results[server].map((r) => r.cpuMs))} ms; idle RSS ${median(results[server].map((r) => r.rssMiB)).toFixed(1)} MiB`,
  );
}
for (const server of SERVERS.filter((s) => s.startsWith('ensign'))) {
  const steps = Object.keys(results[server][0].steps ?? {});
  const medians = steps.map((step) => `${step} ${median(results[server].map((r) => r.steps?.[step] ?? 0))}`);
  console.log(`${server.padEnd(18)} steps of the start, from its log, medians in ms: ${medians.join(', ')}`);
}
const bareMs = median(results.bare.map((r) => r.coldStartMs));
const bareCpuMs = median(results.bare.map((r) => r.cpuMs));
for (const server of SERVERS.filter((s) => s !== 'bare')) {
  const ms = median(results[server].map((r) => r.coldStartMs));
  const ratio = ms / bareMs;
  const cpuRatio = median(results[server].map((r) => r.cpuMs)) / bareCpuMs;
  const measured = `${ratio.toFixed(2)}x (${ms.toFixed(0)} vs ${bareMs.toFixed(0)} ms); in CPU time ${cpuRatio.toFixed(1)}x`;
  if (BUDGETED.includes(server))
    atMost(`${server} / bare`, ratio, BUDGETS.startupRatioToBare, measured, `at most ${BUDGETS.startupRatioToBare}x`);
  else console.log(`         ${server} / bare: ${measured} (no budget)`);
}
const floorMs = median(results['fastify floor'].map((r) => r.coldStartMs));
for (const server of BUDGETED) {
  const ms = median(results[server].map((r) => r.coldStartMs));
  console.log(
    `         ${server} / fastify floor: ${(ms / floorMs).toFixed(2)}x (${(ms - floorMs).toFixed(0)} ms more)`,
  );
}
console.log(`${loadLine()} at the end`);
