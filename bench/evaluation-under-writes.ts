// Evaluation while its namespace is written: reads must not wait for writes. A namespace of N flags is
// evaluated one request at a time while 4 writers add flags to it for a few seconds: on SQLite (one server, the
// writers on it) and on PostgreSQL (two instances, the writers on the other one); then while 10,000 flags are
// imported into it by `ensign import` in a process of its own (which needs `npm run build`).
// Prints the evaluations' latency (p50, p99, max) and the writes done, and the budgets' verdicts at 3,000 flags
// (support/budgets.ts); the first evaluation, the namespace's cold load, is not measured. Servers run in child
// processes; the load comes from this one. EVALUATION_UNDER_WRITES=writers or =import runs one kind only; BENCH_DIALECTS=sqlite or
// =postgres one database only; BENCH_FLAGS=3000 the writers' runs at that size only. BENCH_BASELINE=1 first
// measures a bare node:http server the same way: on a machine shared with other work, what it alone adds.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../server/app.js';
import { defaultConfig } from '../server/config/index.js';
import { BUDGETS } from './support/budgets.js';
import { generateFeatures } from './support/features.js';
import { atMost } from './support/verdicts.js';

const WRITERS = 4;
const IMPORTED = 10_000;
/** The namespace size the budgets apply to (support/budgets.ts). */
const BUDGETED_FLAGS = 3000;
const KINDS = (process.env.EVALUATION_UNDER_WRITES ?? 'writers,import').split(',');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const SIZES = (process.env.BENCH_FLAGS ?? '3000,10000').split(',').map(Number);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** In the child: a server on `url`, seeded with `flags` boolean flags when asked, listening on a free port. */
async function serve(url: string, flags: number): Promise<number> {
  const config = defaultConfig();
  config.db.url = url;
  config.surveys.enabled = false;
  const app = await buildApp(config);
  await app.ready();
  if (flags > 0) {
    await app.ensign.flipt.transaction(async (tx) => {
      for (let i = 0; i < flags; i++) {
        await tx.createFlag({
          namespaceKey: 'default',
          key: `flag_${i}`,
          name: `Flag ${i}`,
          description: '',
          enabled: i % 2 === 0,
          type: 'BOOLEAN_FLAG_TYPE',
          metadata: {},
        });
      }
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

interface Child {
  base: string;
  /** The server's event loop delay since it started listening. */
  loopDelay(): Promise<string>;
  stop(): void;
}

/** A server in a child process: `serve` on `url`, or a bare node:http server for url `bare`. */
async function startChild(url: string, flags: number): Promise<Child> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', url, String(flags)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(message as number));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const loopDelay = () =>
    new Promise<string>((resolve) => {
      child.once('message', (message) => resolve(message as string));
      child.send('loop delay');
    });
  return { base: `http://127.0.0.1:${port}`, loopDelay, stop: () => child.kill() };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Evaluates one request at a time until `done` says so; the latencies, sorted. */
async function evaluateUntil(evaluated: string, done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  const body = JSON.stringify({ namespaceKey: 'default', flagKey: 'flag_1', entityId: 'e' });
  while (!done()) {
    const started = performance.now();
    const response = await fetch(`${evaluated}/evaluate/v1/boolean`, { method: 'POST', body });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

function report(label: string, latencies: number[], what: string, budgeted = false): void {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  if (budgeted) {
    const p99 = percentile(latencies, 0.99);
    const slow = latencies.filter((value) => value > BUDGETS.evaluationUnderWritesMaxMs).length;
    atMost(
      `${label}: p99`,
      p99,
      BUDGETS.evaluationUnderWritesP99Ms,
      ms(p99),
      `at most ${BUDGETS.evaluationUnderWritesP99Ms} ms`,
    );
    atMost(`${label}: over ${BUDGETS.evaluationUnderWritesMaxMs} ms`, slow, 0, `${slow} evaluations`, 'none');
  }
  console.log(
    `${label}: ${latencies.length} evaluations, p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))}, ` +
      `max ${ms(latencies.at(-1)!)}, over 150 ms: ${latencies.filter((value) => value > 150).length}; ${what}`,
  );
}

/** A bare node:http server that answers every request at once, measured as the evaluations are: the machine's own noise. */
async function baseline(): Promise<void> {
  const server = await startChild('bare', 0);
  try {
    const until = Date.now() + SECONDS * 1000;
    report(
      'bare node:http server (baseline)',
      await evaluateUntil(server.base, () => Date.now() >= until),
      'no writes',
    );
  } finally {
    server.stop();
  }
}

/** One evaluation, not measured: the namespace's first load (a cold start, not a wait on writes) is behind it. */
async function warmUp(evaluated: string): Promise<void> {
  const body = JSON.stringify({ namespaceKey: 'default', flagKey: 'flag_1', entityId: 'e' });
  await (await fetch(`${evaluated}/evaluate/v1/boolean`, { method: 'POST', body })).arrayBuffer();
}

/** Evaluations on `evaluated` while WRITERS clients add flags through `written` for SECONDS. */
async function underWriters(label: string, evaluated: Child, written: string, budgeted: boolean): Promise<void> {
  await warmUp(evaluated.base);
  let writing = true;
  let writes = 0;
  const writers = Array.from({ length: WRITERS }, async (_, writer) => {
    for (let i = 0; writing; i++) {
      const response = await fetch(`${written}/api/v1/namespaces/default/flags`, {
        method: 'POST',
        body: JSON.stringify({ key: `written_${writer}_${i}`, name: 'w', type: 'BOOLEAN_FLAG_TYPE' }),
        headers: { 'content-type': 'application/json' },
      });
      await response.arrayBuffer();
      if (response.ok) writes++;
    }
  });
  const until = Date.now() + SECONDS * 1000;
  const latencies = await evaluateUntil(evaluated.base, () => Date.now() >= until);
  writing = false;
  await Promise.all(writers);
  report(label, latencies, `${writes} flags written; its event loop delay ${await evaluated.loopDelay()}`, budgeted);
}

/** Evaluations on `evaluated` while `importing` runs, and for a second after it ends. */
async function underImport(label: string, evaluated: string, importing: () => Promise<void>): Promise<void> {
  await warmUp(evaluated);
  let endedAt: number | undefined;
  const startedAt = Date.now();
  const imported = importing().then(() => {
    endedAt = Date.now();
  });
  const latencies = await evaluateUntil(evaluated, () => endedAt !== undefined && Date.now() - endedAt >= 1000);
  await imported;
  report(label, latencies, `${IMPORTED} flags imported in ${((endedAt! - startedAt) / 1000).toFixed(1)} s`, true);
}

/** `ensign import FILE` into the database at `url`, as an operator runs it beside the servers. */
function importCommand(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/cli.js', 'import', file, '--db', url], { stdio: 'inherit' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ensign import exited with ${code}`))));
  });
}

/** The features file of the import runs. */
function featuresFile(dir: string): string {
  const file = join(dir, 'features.yml');
  writeFileSync(file, generateFeatures(IMPORTED));
  return file;
}

async function sqlite(flags: number, kind: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-'));
  const url = `file:${join(dir, 'ensign.db')}`;
  const server = await startChild(url, flags);
  try {
    if (kind === 'writers') {
      await underWriters(
        `SQLite, ${flags} flags, ${WRITERS} writers on the same server`,
        server,
        server.base,
        flags === BUDGETED_FLAGS,
      );
    } else {
      const file = featuresFile(dir);
      await underImport(`SQLite, ${flags} flags, ensign import beside the server`, server.base, () =>
        importCommand(url, file),
      );
    }
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(flags: number, kind: string): Promise<void> {
  const name = `ensign_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch {
    console.log(`PostgreSQL at ${ADMIN_URL} does not answer: its runs are skipped`);
    return;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const one = await startChild(url.toString(), flags);
  const two = await startChild(url.toString(), 0);
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-'));
  try {
    if (kind === 'writers') {
      await underWriters(
        `PostgreSQL, ${flags} flags, ${WRITERS} writers on the other instance`,
        one,
        two.base,
        flags === BUDGETED_FLAGS,
      );
    } else {
      const file = featuresFile(dir);
      await underImport(`PostgreSQL, ${flags} flags, ensign import beside the instances`, one.base, () =>
        importCommand(url.toString(), file),
      );
    }
  } finally {
    one.stop();
    two.stop();
    rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (process.argv[2] === 'serve' && process.argv[3] === 'bare') {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{"enabled":true}'));
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as { port: number }).port));
  process.on('disconnect', () => process.exit());
} else if (process.argv[2] === 'serve') {
  process.on('disconnect', () => process.exit());
  const port = await serve(process.argv[3], Number(process.argv[4]));
  // The server's event loop delay while it is measured: what its synchronous work made every request wait.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  process.on('message', (message) => {
    if (message !== 'loop delay') return;
    const ms = (ns: number) => `${(ns / 1e6).toFixed(1)} ms`;
    process.send!(`p50 ${ms(delay.percentile(50))}, p99 ${ms(delay.percentile(99))}, max ${ms(delay.max)}`);
  });
  process.send!(port);
} else {
  if (process.env.BENCH_BASELINE === '1') await baseline();
  if (KINDS.includes('writers')) {
    for (const flags of SIZES) {
      if (DIALECTS.includes('sqlite')) await sqlite(flags, 'writers');
      if (DIALECTS.includes('postgres')) await postgres(flags, 'writers');
    }
  }
  if (KINDS.includes('import') && !existsSync('dist/cli.js')) {
    console.log('dist/cli.js is missing (npm run build): the import runs are skipped');
  } else if (KINDS.includes('import')) {
    if (DIALECTS.includes('sqlite')) await sqlite(3000, 'import');
    if (DIALECTS.includes('postgres')) await postgres(3000, 'import');
  }
}
