import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client, InStatement, ResultSet, Transaction, TransactionMode } from '@libsql/client';

/**
 * SQLite has one writer at a time, and two behaviours of libSQL make a busy database dangerous:
 * - it waits for a lock synchronously, inside the native call, so a long wait blocks the event loop:
 *   another transaction of this same process cannot finish and release the lock it holds, every
 *   writer times out with SQLITE_BUSY and evaluations stall meanwhile;
 * - a statement that failed with SQLITE_BUSY stays "in progress" on its connection. The next
 *   transaction there cannot commit ("cannot commit transaction - SQL statements in progress"), and
 *   worse, an autocommit write there succeeds without being committed (SQLite commits when the last
 *   active statement ends) and is rolled back later: acknowledged writes were lost this way.
 * So, for a SQLite database:
 * - reads use a pool of connections; writes use one connection of their own, and this process's
 *   writes take turns on it (one transaction or write statement at a time, in order);
 * - the native wait is kept short (SQLITE_BUSY_WAIT_MS); after SQLITE_BUSY the write connection is
 *   closed (which finalises the failed statement) and a new one is opened, and the write is tried
 *   again after an asynchronous pause, so another process (`ensign import`, a back-up) can finish;
 * - a write that cannot start within WRITE_WAIT_MS fails with DatabaseBusyError (answered 503 with
 *   Retry-After), never with a half-done transaction or a broken connection.
 */
export const SQLITE_BUSY_WAIT_MS = 20;
export const WRITE_WAIT_MS = 10_000;

/** The database stayed locked by another writer for longer than a request may wait. */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
  readonly statusCode = 503;
  /** Seconds a client should wait before it tries again (the Retry-After header). */
  readonly retryAfter = 1;
  constructor() {
    super(`the database stayed locked by another writer for ${WRITE_WAIT_MS / 1000} s; retry the request`);
  }
}

/**
 * Set while a read-only transaction starts: Kysely's libSQL dialect opens every transaction in write
 * mode, and a consistent read (an evaluation snapshot) must not wait for, or take, the write lock.
 */
const readingOnly = new AsyncLocalStorage<true>();

/** Runs `work`, whose transaction only reads, on the read connections. */
export const asReadOnly = <T>(work: () => Promise<T>): Promise<T> => readingOnly.run(true, work);

const isBusy = (error: unknown) => {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'SQLITE_BUSY' || (typeof message === 'string' && message.includes('SQLITE_BUSY'));
};

const READ = /^\s*(select|pragma|explain|with\s[\s\S]*?\)\s*select)\b/i;
const sqlOf = (statement: InStatement) => (typeof statement === 'string' ? statement : statement.sql);

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY, pausing a little longer each time, until the
 * deadline; `afterBusy` runs after each SQLITE_BUSY.
 */
async function untilNotBusy<T>(deadline: number, attempt: () => Promise<T>, afterBusy = () => {}): Promise<T> {
  for (let pause = 10; ; pause = Math.min(pause * 2, 250)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
      afterBusy();
      if (Date.now() + pause > deadline) throw new DatabaseBusyError();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** One holder at a time, served in order; a waiter gives up at its deadline. */
class WriteTurns {
  private holder = false;
  private readonly waiting: { grant: () => void; timer: ReturnType<typeof setTimeout> }[] = [];

  take(deadline: number): Promise<() => void> {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant();
      } else {
        this.holder = false;
      }
    };
    if (!this.holder) {
      this.holder = true;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => resolve(release),
        timer: setTimeout(
          () => {
            this.waiting.splice(this.waiting.indexOf(waiter), 1);
            reject(new DatabaseBusyError());
          },
          Math.max(0, deadline - Date.now()),
        ),
      };
      this.waiting.push(waiter);
    });
  }
}

/**
 * One client for a SQLite database: reads on `client` (a pool), writes taking turns on a connection
 * of their own, opened by `openWriter` (which sets it up) and replaced after SQLITE_BUSY.
 */
export function takingTurnsToWrite(client: Client, openWriter: () => Promise<Client>): Client {
  const turns = new WriteTurns();
  let writer: Promise<Client> | undefined;
  const writerClient = () => {
    if (!writer) {
      const opening = openWriter();
      writer = opening;
      opening.catch(() => {
        if (writer === opening) writer = undefined;
      });
    }
    return writer;
  };
  const closeWriter = () =>
    writer?.then(
      (open) => open.close(),
      () => undefined,
    );
  const replaceWriter = () => {
    closeWriter();
    writer = undefined;
  };
  const write = async <T>(work: (writer: Client) => Promise<T>): Promise<T> => {
    const deadline = Date.now() + WRITE_WAIT_MS;
    const release = await turns.take(deadline);
    try {
      return await untilNotBusy(deadline, () => writerClient().then(work), replaceWriter);
    } finally {
      release();
    }
  };

  const transaction = async (mode: TransactionMode = 'write'): Promise<Transaction> => {
    if (mode === 'read' || readingOnly.getStore()) {
      return untilNotBusy(Date.now() + WRITE_WAIT_MS, () => client.transaction('read'));
    }
    const deadline = Date.now() + WRITE_WAIT_MS;
    const release = await turns.take(deadline);
    let tx: Transaction;
    try {
      tx = await untilNotBusy(deadline, () => writerClient().then((writer) => writer.transaction(mode)), replaceWriter);
    } catch (error) {
      release();
      throw error;
    }
    // The turn ends with the transaction, however it ends.
    const settle =
      <A extends unknown[], R>(end: (...args: A) => R) =>
      (...args: A): R => {
        try {
          const result = end(...args);
          if (result instanceof Promise) return result.finally(release) as R;
          release();
          return result;
        } catch (error) {
          release();
          throw error;
        }
      };
    // A statement of the transaction that still meets SQLITE_BUSY leaves the connection unusable: the
    // transaction fails (Kysely rolls it back) and the write connection is replaced.
    const replacingAfterBusy = <R>(run: () => Promise<R>): Promise<R> =>
      run().catch((error: unknown) => {
        if (isBusy(error)) replaceWriter();
        throw error;
      });
    return {
      execute: (statement: InStatement) => replacingAfterBusy(() => tx.execute(statement)),
      batch: (statements: InStatement[]) => replacingAfterBusy(() => tx.batch(statements)),
      executeMultiple: (sql: string) => replacingAfterBusy(() => tx.executeMultiple(sql)),
      commit: settle(() => replacingAfterBusy(() => tx.commit())),
      rollback: settle(() => tx.rollback()),
      close: settle(() => tx.close()),
      get closed() {
        return tx.closed;
      },
    } as Transaction;
  };

  const execute = (statement: InStatement): Promise<ResultSet> =>
    READ.test(sqlOf(statement))
      ? untilNotBusy(Date.now() + WRITE_WAIT_MS, () => client.execute(statement))
      : write((writer) => writer.execute(statement));

  return {
    execute,
    transaction,
    batch: (statements: InStatement[], mode?: TransactionMode) => write((writer) => writer.batch(statements, mode)),
    executeMultiple: (sql: string) => write((writer) => writer.executeMultiple(sql)),
    close: () => {
      closeWriter();
      client.close();
    },
    get closed() {
      return client.closed;
    },
    get protocol() {
      return client.protocol;
    },
  } as Client;
}
