// Evaluation while its namespace is written: reads must not wait for writes. A namespace of N flags is
// evaluated one request at a time while 4 writers add flags to it for a few seconds: on SQLite (one server, the
// writers on it) and on PostgreSQL (two instances, the writers on the other one). Prints the evaluations'
// latency (p50, p99, max) and the writes done. Servers run in child processes; the load comes from this one.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../server/app.js';
import { defaultConfig } from '../server/config/index.js';

const WRITERS = 4;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
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

async function startChild(url: string, flags: number): Promise<{ base: string; stop(): void }> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', url, String(flags)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(message as number));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function run(label: string, evaluated: string, written: string): Promise<void> {
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
  const latencies: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  const body = JSON.stringify({ namespaceKey: 'default', flagKey: 'flag_1', entityId: 'e' });
  while (Date.now() < until) {
    const started = performance.now();
    const response = await fetch(`${evaluated}/evaluate/v1/boolean`, { method: 'POST', body });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  writing = false;
  await Promise.all(writers);
  latencies.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `${label}: ${latencies.length} evaluations, p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))}, ` +
      `max ${ms(latencies.at(-1)!)}, over 150 ms: ${latencies.filter((value) => value > 150).length}; ${writes} flags written`,
  );
}

async function sqlite(flags: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-'));
  const server = await startChild(`file:${join(dir, 'ensign.db')}`, flags);
  try {
    await run(`SQLite, ${flags} flags, ${WRITERS} writers on the same server`, server.base, server.base);
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(flags: number): Promise<void> {
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
  try {
    await run(`PostgreSQL, ${flags} flags, ${WRITERS} writers on the other instance`, one.base, two.base);
  } finally {
    one.stop();
    two.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (process.argv[2] === 'serve') {
  process.on('disconnect', () => process.exit());
  process.send!(await serve(process.argv[3], Number(process.argv[4])));
} else {
  for (const flags of [3000, 10_000]) {
    await sqlite(flags);
    await postgres(flags);
  }
}
