// `ensign import` of generated features files (bench/support/features.ts): 10,000 and 100,000 flags,
// on SQLite and (when DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server; a throwaway
// database is created there and dropped) PostgreSQL. Prints the wall time of the command and its peak
// resident memory, read from /proc as the command runs, next to the budgets. Needs `npm run build`.
// IMPORT_SIZES=10000 runs one size only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase } from '../test/support/postgres.js';
import { generateFeatures } from './support/features.js';

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

function line(size: number, megabytes: string, database: string, { seconds, peakMiB }: Run): string {
  const budget = BUDGETS[size];
  const within = budget
    ? `  budget ${budget.seconds} s / ${budget.mebibytes} MB: ${seconds <= budget.seconds && peakMiB <= budget.mebibytes ? 'within' : 'OVER'}`
    : '';
  return `${String(size).padStart(7)} flags (${megabytes} MB)  ${database.padEnd(10)}  ${seconds.toFixed(2)} s  peak ${peakMiB.toFixed(0)} MiB  ${(size / seconds).toFixed(0)} flags/s${within}`;
}

/** Runs the import; resolves with its wall time and the highest peak RSS seen while it ran. */
function runImport(file: string, db: string): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/cli.js', 'import', file, '--db', db], {
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
      if (code !== 0) return reject(new Error(`import exited with ${code}: ${output}`));
      resolve({ seconds: (performance.now() - started) / 1000, peakMiB: peak / 2 ** 20, output: output.trim() });
    });
  });
}

try {
  for (const size of SIZES) {
    const file = join(dir, `features-${size}.yml`);
    writeFileSync(file, generateFeatures(size));
    const megabytes = (readFileSync(file).length / 1e6).toFixed(1);
    const sqlite = await runImport(file, `file:${join(dir, `sqlite-${size}.db`)}`);
    console.log(line(size, megabytes, 'SQLite', sqlite));
    if (POSTGRES_URL) {
      const database = await createPostgresDatabase(POSTGRES_URL, 'ensign_bench');
      try {
        console.log(line(size, megabytes, 'PostgreSQL', await runImport(file, database.url)));
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
