import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/**
 * The thread's code: one read-only connection of its own, each query's rows as objects. A query that
 * fails answers its message with the error; the thread lives on.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.path, { timeout: workerData.timeout });
db.exec('PRAGMA query_only = ON');
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    parentPort.postMessage({ id, rows: db.prepare(sql).all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/**
 * Long reads of a SQLite database on a thread of their own. libSQL runs a query inside its native call,
 * on the event loop: a read of a few hundred milliseconds (a page of an export, a scan of a month of
 * responses) holds every other request for as long, and no other work of the export itself can run
 * meanwhile. Here it runs on a connection of a worker thread while the event loop goes on; the export
 * writes out one page while the thread reads the next. Reads only (the connection is query_only), in
 * autocommit: each query sees the database as it is when it starts. Rows come back as objects by
 * column name, integers as JavaScript numbers.
 */
export class ReadsAside {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #next = 0;

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
  ) {}

  read<R>(query: CompiledQuery<R>): Promise<R[]> {
    const worker = this.#thread();
    const id = this.#next++;
    return new Promise<R[]>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as Pending['resolve'], reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: {
        libsql: createRequire(import.meta.url).resolve('libsql'),
        path: this.path,
        timeout: this.busyTimeoutMs,
      },
    });
    // An idle thread keeps no process alive; one with reads under way does (see read).
    worker.unref();
    worker.on(
      'message',
      ({ id, rows, error }: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        const pending = this.#pending.get(id);
        if (!pending) return;
        this.#pending.delete(id);
        if (this.#pending.size === 0) worker.unref();
        if (error) pending.reject(Object.assign(new Error(error.message), { code: error.code }));
        else pending.resolve(rows!);
      },
    );
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the SQLite read thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }
}
