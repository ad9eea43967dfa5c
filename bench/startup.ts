// Cold start of `ensign serve` (process spawn to the first /health 200) and its idle RSS,
// on a fresh temporary database each run. Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = 5;
const PORT = 18_400;

async function once(run: number): Promise<{ coldStartMs: number; rssMiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-startup-'));
  const port = PORT + run;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['dist/cli.js', 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', `file:${join(dir, 'x.db')}`],
    {
      stdio: 'ignore',
    },
  );
  let coldStartMs = 0;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) {
        coldStartMs = performance.now() - started;
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
  return { coldStartMs, rssMiB: rssKiB / 1024 };
}

const results = [];
for (let run = 0; run < RUNS; run++) results.push(await once(run));
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const cold = results.map((r) => r.coldStartMs);
const rss = results.map((r) => r.rssMiB);
console.log(
  `cold start (spawn -> first /health 200), ${RUNS} runs: median ${median(cold).toFixed(0)} ms, min ${Math.min(...cold).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms`,
);
console.log(`idle RSS 2 s after start: median ${median(rss).toFixed(1)} MiB`);
