import cluster, { type Worker } from 'node:cluster';
import { isClusterChange } from './changes.js';
import { answerMetricsRequests } from './metrics.js';

/** A crashed worker is replaced after 100 ms, then 200 ms, 400 ms... at most 30 s while crashes go on. */
export function restartDelayMs(recentCrashes: number): number {
  return Math.min(100 * 2 ** recentCrashes, 30_000);
}
/** A worker that served this long before it crashed resets the backoff. */
const STABLE_MS = 60_000;

/**
 * `ensign serve --workers N` (N > 1): this process supervises N worker processes, each a whole
 * server on the shared port (node:cluster hands each new connection to one of them). Evaluation
 * throughput then grows with the cores, as Flipt's does.
 * - Workers start one after another, so only the first migrates the database, seeds the surveys
 *   and creates the bootstrap token; the others find them done.
 * - A change committed by one worker reaches the others' snapshots through this process
 *   (ChangeFeed.relayThroughCluster); each worker flushes its own analytics counts, which add up.
 * - SIGINT/SIGTERM is passed on; each worker finishes its requests and flushes, then this exits.
 *   A worker that dies otherwise is replaced, after a delay that grows while crashes follow one another.
 * - `GET /metrics` on any worker answers with the sum over all of them, gathered here.
 */
export async function superviseWorkers(count: number): Promise<void> {
  let stopping = false;
  let recentCrashes = 0;
  answerMetricsRequests();

  cluster.on('message', (from, message) => {
    if (!isClusterChange(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) if (worker && worker !== from) worker.send(message);
  });

  const start = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork();
      const failed = (code: number | null) => reject(new Error(`a worker exited with ${code} before it listened`));
      worker.once('exit', failed);
      worker.once('listening', () => {
        const listening = Date.now();
        worker.off('exit', failed);
        worker.once('exit', (code, signal) => {
          if (stopping) return;
          if (Date.now() - listening > STABLE_MS) recentCrashes = 0;
          restartLater(`worker ${worker.process.pid} exited (${signal ?? code})`);
        });
        resolve(worker);
      });
    });

  const restartLater = (why: string) => {
    const delay = restartDelayMs(recentCrashes++);
    console.error(`ensign: ${why}; starting another in ${delay} ms`);
    setTimeout(() => {
      if (!stopping) start().catch((error: Error) => restartLater(error.message));
    }, delay);
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    let running = workers.length;
    if (running === 0) process.exit(0);
    let failed = false;
    for (const worker of workers) {
      worker.once('exit', (code) => {
        failed ||= code !== 0;
        if (--running === 0) process.exit(failed ? 1 : 0);
      });
      worker.process.kill(signal);
    }
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  for (let i = 0; i < count; i++) await start().catch(fail);
  console.log(`ensign: ${count} workers listening`);
}

function fail(error: Error): never {
  console.error(`ensign: ${error.message}`);
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  process.exit(1);
}
