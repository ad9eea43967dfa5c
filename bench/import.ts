// `ensign import` of generated features files (bench/support/features.ts): 10,000 and 100,000 flags,
// on SQLite and (when DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server; a throwaway
// database is created there and dropped) PostgreSQL, then `ensign export` of what was imported.
// Prints the wall time of each command and its peak resident memory, read from /proc as the command
// runs, next to the import budgets. Needs `npm run build`. IMPORT_SIZES=10000 runs one size only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase } from '../test/support/postgres.js';
import { generateFeatures } from './support/features.js';
import { atMost } from './support/verdicts.js';

const SIZES = (process.env.IMPORT_SIZES ?? '10000,100000').split(',').map(Number);
const POSTGRES_URL = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
/** Seconds and MiB each size may take. */
const BUDGETS: Record<number, { seconds: number; mebibytes: number }> = {
  10000: { seconds: 3, mebibytes: 300 },
  100000: { seconds: 30, mebibytes: 500 },
};
const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-import-'));

function peakRssOf(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

interface Run {
  seconds: number;
  peakMiB: number;
  output: string;
}

/** One command's figures; an import's against its budgets (time and peak memory). */
function report(size: number, megabytes: string, database: string, command: string, { seconds, peakMiB }: Run): void {
  console.log(
    `${String(size).padStart(7)} flags (${megabytes} MB)  ${database.padEnd(10)}  ${command}  ${seconds.toFixed(2)} s  peak ${peakMiB.toFixed(0)} MiB  ${(size / seconds).toFixed(0)} flags/s`,
  );
  const budget = command === 'import' ? BUDGETS[size] : undefined;
  if (!budget) return;
  const name = `${database}, import of ${size} flags`;
  atMost(`${name}: time`, seconds, budget.seconds, `${seconds.toFixed(2)} s`, `at most ${budget.seconds} s`);
  atMost(
    `${name}: peak memory`,
    peakMiB,
    budget.mebibytes,
    `${peakMiB.toFixed(0)} MiB`,
    `at most ${budget.mebibytes} MiB`,
  );
}

/** Imports the file into an empty database, then exports it to a file. */
async function importThenExport(size: number, file: string, megabytes: string, database: string, db: string) {
  report(size, megabytes, database, 'import', await run(['import', file, '--db', db]));
  report(size, megabytes, database, 'export', await run(['export', '--db', db, '-o', join(dir, `export-${size}.yml`)]));
}

/** Runs the command; resolves with its wall time and the highest peak RSS seen while it ran. */
function run(args: string[]): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/cli.js', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRssOf(child.pid!))), 20);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`${args[0]} exited with ${code}: ${output}`));
      resolve({ seconds: (performance.now() - started) / 1000, peakMiB: peak / 2 ** 20, output: output.trim() });
    });
  });
}

try {
  for (const size of SIZES) {
    const file = join(dir, `features-${size}.yml`);
    writeFileSync(file, generateFeatures(size));
    const megabytes = (readFileSync(file).length / 1e6).toFixed(1);
    await importThenExport(size, file, megabytes, 'SQLite', `file:${join(dir, `sqlite-${size}.db`)}`);
    if (POSTGRES_URL) {
      const database = await createPostgresDatabase(POSTGRES_URL, 'ensign_bench');
      try {
        await importThenExport(size, file, megabytes, 'PostgreSQL', database.url);
      } finally {
        await database.drop();
      }
    }
  }
  if (!POSTGRES_URL)
    console.log(
      'PostgreSQL skipped: set DATABASE_URL (or TEST_DATABASE_URL) to a server to create a throwaway database on',
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
