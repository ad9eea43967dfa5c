// `ensign import` of generated features files (bench/support/features.ts): 10,000 and 100,000 flags,
// on SQLite and (when TEST_DATABASE_URL names a server) PostgreSQL. Prints the wall time of the
// command and its peak resident memory, read from /proc as the command runs. Needs `npm run build`.
// Budgets: 10,000 flags in 3 s and 300 MB; 100,000 flags in 30 s and 500 MB.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase } from '../test/support/postgres.js';
import { generateFeatures } from './support/features.js';

const SIZES = (process.env.IMPORT_SIZES ?? '10000,100000').split(',').map(Number);
const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-import-'));

function peakRssOf(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Runs the import; resolves with its wall time and the highest peak RSS seen while it ran. */
function runImport(file: string, db: string): Promise<{ seconds: number; peakMiB: number; output: string }> {
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
    console.log(
      `${String(size).padStart(7)} flags (${megabytes} MB)  SQLite      ${sqlite.seconds.toFixed(2)} s  peak ${sqlite.peakMiB.toFixed(0)} MiB  ${(size / sqlite.seconds).toFixed(0)} flags/s`,
    );
    if (process.env.TEST_DATABASE_URL) {
      const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL, 'ensign_bench');
      try {
        const postgres = await runImport(file, database.url);
        console.log(
          `${String(size).padStart(7)} flags (${megabytes} MB)  PostgreSQL  ${postgres.seconds.toFixed(2)} s  peak ${postgres.peakMiB.toFixed(0)} MiB  ${(size / postgres.seconds).toFixed(0)} flags/s`,
        );
      } finally {
        await database.drop();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
