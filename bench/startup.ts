// Cold start of `ensign serve` (process spawn to the first /health 200) and its idle RSS, on a fresh
// temporary database each run, next to a bare node:http server started and polled the same way in
// alternating rounds. Budget: at most 4x the bare start. Needs `npm run build` first. The CPU time the
// process had used when /health first answered is printed too: on a loaded machine it stays steady
// while wall-clock times swing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = 7;
/** The first of the ports the runs use (two a run): STARTUP_BENCH_PORT, when others are taken. */
const PORT = Number(process.env.STARTUP_BENCH_PORT ?? 18_400);
const BUDGET_RATIO = 4;

/** A bare node:http server on the port, started with `node -e`. */
const bareServer = (port: number) =>
  `require('node:http').createServer((q, s) => s.end('{"status":"SERVING"}')).listen(${port}, '127.0.0.1')`;

type Server = 'ensign' | 'bare';

interface Run {
  coldStartMs: number;
  cpuMs: number;
  rssMiB: number;
}

/** User and system CPU milliseconds a process has used so far (Linux: /proc/PID/stat, clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function once(server: Server, run: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-startup-'));
  const port = PORT + run * 2 + (server === 'bare' ? 1 : 0);
  const args =
    server === 'ensign'
      ? ['dist/cli.js', 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', `file:${join(dir, 'x.db')}`]
      : ['-e', bareServer(port)];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
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
  return { coldStartMs, cpuMs, rssMiB: rssKiB / 1024 };
}

const results: Record<Server, Run[]> = { ensign: [], bare: [] };
for (let run = 0; run < RUNS; run++) {
  for (const server of ['ensign', 'bare'] as const) results[server].push(await once(server, run));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const server of ['ensign', 'bare'] as const) {
  const cold = results[server].map((r) => r.coldStartMs);
  console.log(
    `${server.padEnd(6)} cold start (spawn -> first /health 200), ${RUNS} runs: median ${median(cold).toFixed(0)} ms, min ${Math.min(...cold).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms; CPU by then ${median(results[server].map((r) => r.cpuMs))} ms; idle RSS ${median(results[server].map((r) => r.rssMiB)).toFixed(1)} MiB`,
  );
}
const cpuRatio = median(results.ensign.map((r) => r.cpuMs)) / median(results.bare.map((r) => r.cpuMs));
console.log(`ensign / bare in CPU time to the first /health 200: ${cpuRatio.toFixed(1)}x`);
const ratio = median(results.ensign.map((r) => r.coldStartMs)) / median(results.bare.map((r) => r.coldStartMs));
console.log(
  `ensign / bare: ${ratio.toFixed(1)}x (budget ${BUDGET_RATIO}x: ${ratio <= BUDGET_RATIO ? 'met' : 'missed'})`,
);
