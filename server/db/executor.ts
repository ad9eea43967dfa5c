import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from './codec.js';
import type { Database as Tables } from './schema.js';

/**
 * What every store function (Flipt's and the survey provider's) takes first: the open database or
 * one of its transactions, with the dialect for the row codecs. `db` is a `Transaction` inside one.
 */
export interface Executor {
  readonly db: Kysely<Tables>;
  readonly dialect: Dialect;
  /** Present on the open database (see `Database`), absent on a transaction. */
  transaction?<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T>;
}

/**
 * Runs `work` in one transaction: a new one on the open database, or the executor's own when it is
 * already a transaction (so a store function that writes several rows can also be part of a bigger write).
 */
export function inTransaction<T>(executor: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  if (!executor.transaction) return work(executor);
  return executor.transaction((db) => work({ db, dialect: executor.dialect }));
}
