import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  type CompiledQuery,
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  sql,
  type LogEvent,
  type Transaction,
} from 'kysely';
import { createClient, type Client } from '@libsql/client/sqlite3';
import { LibsqlDialect } from '@libsql/kysely-libsql';
import type pg from 'pg';
import type { Database as Tables } from './schema.js';
import type { Executor } from './executor.js';
import { migrationsFor } from './migrations/index.js';
import { SQLITE_BUSY_WAIT_MS, asReadOnly, takingTurnsToWrite } from './sqlite-writes.js';
import { DirectReads } from './direct-reads.js';
import { ReadsAside } from './reads-aside.js';
import { keepPreparedStatements } from './statement-cache.js';
import { createFromSchema } from './sqlite-schema.js';

export type { Dialect } from './codec.js';

// @libsql/kysely-libsql types its client with the older @libsql/client it depends on; the newer
// client we pass (it pools connections and takes a busy timeout) has the same runtime interface.
type DialectClient = Extract<ConstructorParameters<typeof LibsqlDialect>[0], { client: unknown }>['client'];

/** An open database: the Kysely handle, which dialect it speaks, and how to close it. As an executor, it opens transactions. */
export interface Database extends Executor {
  readonly url: string;
  /** The PostgreSQL pool, for LISTEN/NOTIFY; undefined on SQLite. */
  readonly pgPool?: pg.Pool;
  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T>;
  /** SQLite: creates an empty database's tables from the migrations' schema (sqlite-schema.ts); returns their names. */
  createFromSchema?(): Promise<string[]>;
  /** A transaction that only reads, with a consistent view of the data (repeatable read). */
  readTransaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A failure to open or reach the database, with a one-line message fit for a terminal. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** Opens (and, unless told otherwise, migrates) the database at `url`: `file:PATH` or `postgres://...`. */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  const database = isPostgresUrl(url)
    ? await openPostgres(url, options.onQuery)
    : await openSqlite(url, options.onQuery);
  if (options.migrate !== false) {
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

export interface OpenOptions {
  migrate?: boolean;
  /** Told of every query once it has run (tracing records them as spans). */
  onQuery?: (event: LogEvent) => void;
}

async function openSqlite(url: string, onQuery?: OpenOptions['onQuery']): Promise<Database> {
  if (!url.startsWith('file:')) {
    throw new DatabaseOpenError(`unsupported database url "${url}": use file:PATH or postgres://...`);
  }
  const path = url.slice('file:'.length);
  if (path === '' || path === ':memory:') {
    throw new DatabaseOpenError('in-memory SQLite is not supported: every connection would see its own empty database');
  }
  let client: Client;
  keepPreparedStatements();
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    const open = (concurrency: number) =>
      createClient({ url, timeout: SQLITE_BUSY_WAIT_MS, concurrency } as Parameters<typeof createClient>[0]);
    // Each connection has its own `synchronous`: the writes' connection is the one it matters for (a
    // commit in WAL mode then waits for no fsync; a crash of the process loses no committed write).
    const openWriter = async () => {
      const writer = open(1);
      await writer.execute('PRAGMA synchronous = NORMAL');
      return writer;
    };
    client = takingTurnsToWrite(open(8), openWriter);
    await client.execute('PRAGMA journal_mode = WAL');
  } catch (error) {
    throw new DatabaseOpenError(`cannot open database ${url}: ${oneLine(error)}`);
  }
  const db = new Kysely<Tables>({
    dialect: new TransactionalDdlLibsqlDialect({ client: client as unknown as DialectClient }),
    log: onQuery,
  });
  const readsAside = new ReadsAside(path, SQLITE_BUSY_WAIT_MS);
  const directReads = new DirectReads(path, SQLITE_BUSY_WAIT_MS);
  return {
    db,
    dialect: 'sqlite',
    url,
    // libSQL opens every pooled connection with foreign keys enforced.
    transaction: (work) => db.transaction().execute(work),
    readTransaction: (work) => asReadOnly(() => db.transaction().execute(work)),
    createFromSchema: () => createFromSchema(client),
    readAside: (query) => reported(query, onQuery, () => readsAside.read(query)),
    readDirect: (query, oneRow) => reported(query, onQuery, () => directReads.read(query, oneRow)),
    close: async () => {
      directReads.close();
      await readsAside.close();
      await db.destroy();
      client.close();
    },
  };
}

/** Runs a read that bypasses Kysely and tells `onQuery` of it as Kysely tells of its own (tracing records them). */
async function reported<R>(
  query: CompiledQuery<R>,
  onQuery: OpenOptions['onQuery'],
  read: () => R[] | Promise<R[]>,
): Promise<R[]> {
  const started = performance.now();
  try {
    const rows = await read();
    onQuery?.({ level: 'query', query, queryDurationMillis: performance.now() - started });
    return rows;
  } catch (error) {
    onQuery?.({ level: 'error', error, query, queryDurationMillis: performance.now() - started });
    throw error;
  }
}

/**
 * SQLite runs DDL inside transactions, though Kysely's SQLite adapter says otherwise; saying so
 * makes its migrator apply the pending migrations in one transaction: all or none of them, and one
 * commit (one fsync) instead of one per statement, which was a quarter of a cold start.
 */
class TransactionalDdlLibsqlDialect extends LibsqlDialect {
  override createAdapter(): SqliteAdapter {
    return new (class extends SqliteAdapter {
      override get supportsTransactionalDdl(): boolean {
        return true;
      }
    })();
  }
}

async function openPostgres(url: string, onQuery?: OpenOptions['onQuery']): Promise<Database> {
  // Imported here: a server on SQLite never loads the PostgreSQL driver.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next checkout.
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(`cannot reach database ${redact(url)}: ${oneLine(error)}`);
  }
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), log: onQuery });
  return {
    db,
    dialect: 'postgres',
    url,
    pgPool: pool,
    transaction: (work) => db.transaction().execute(work),
    readTransaction: (work) => db.transaction().setIsolationLevel('repeatable read').execute(work),
    // No readAside: PostgreSQL runs every query in its own process; `readAside` runs it as any query.
    close: () => db.destroy(),
  };
}

/**
 * Runs every pending migration; throws a DatabaseOpenError naming the one that failed. An empty SQLite
 * database is created from the migrations' schema instead, unless `fromSchema` is false; the Migrator
 * then runs only what the schema lacks.
 */
export async function migrate(database: Database, { fromSchema = true } = {}): Promise<string[]> {
  const migrations = migrationsFor(database.dialect);
  let applied = await appliedNames(database);
  let created: string[] = [];
  if (!applied && fromSchema && database.createFromSchema) {
    try {
      created = await database.createFromSchema();
      applied = new Set(created);
    } catch (error) {
      // Another process may have created the tables meanwhile (they then exist): the Migrator decides.
      applied = await appliedNames(database);
      if (!applied) throw new DatabaseOpenError(`creating the database failed: ${oneLine(error)}`);
    }
  }
  if (applied && Object.keys(migrations).every((name) => applied.has(name))) return created;
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    // Areas number their migrations apart and may land out of order; each is independent of the others'.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new DatabaseOpenError(`migration ${failed} failed: ${oneLine(error)}`);
  }
  return [...created, ...(results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)];
}

/**
 * The migrations recorded as applied, in one read (undefined when none ever ran): the Migrator's own
 * check of an up-to-date database takes several statements and a lock at every start (bench/startup).
 */
async function appliedNames(database: Database): Promise<Set<string> | undefined> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(
      database.db,
    );
    return new Set(rows.map((row) => row.name));
  } catch {
    return undefined; // a fresh database: no migration table yet
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] || 'unknown error';
}

/** The URL with its password hidden, fit for logs. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
