import Libsql from 'libsql';

/** Reads kept per connection; SQL with `in (...)` lists of every length would otherwise grow it without end. */
export const KEPT_STATEMENTS = 256;

let installed = false;

/**
 * Keeps each SQLite connection's prepared reads, by their SQL, for reuse. @libsql/client prepares every
 * statement it runs anew and offers no cache; on the widget's identified sync, preparing was the largest
 * single cost, above running the queries (docs/decisions.md, "The identified sync"). Its reads run to
 * the end synchronously (`all`), so one statement is never in use twice at once, and SQLite prepares a
 * kept statement again by itself after a schema change. Writes (`BEGIN`, `COMMIT`, inserts) are prepared
 * each time: kept ones left connections unable to take the write lock under contention
 * (test/server/contention.test.ts answered half its writes 503).
 */
export function keepPreparedStatements(): void {
  if (installed) return;
  installed = true;
  const prepare = Libsql.prototype.prepare;
  const kept = new WeakMap<Libsql.Database, Map<string, ReturnType<typeof prepare>>>();
  Libsql.prototype.prepare = function keptPrepare(this: Libsql.Database, sql: string) {
    let statements = kept.get(this);
    if (!statements) kept.set(this, (statements = new Map()));
    const statement = statements.get(sql);
    if (statement) {
      // Most recently used last: the first entry is the one to drop.
      statements.delete(sql);
      statements.set(sql, statement);
      return statement;
    }
    const prepared = prepare.call(this, sql);
    if (!prepared.reader) return prepared;
    if (statements.size >= KEPT_STATEMENTS) statements.delete(statements.keys().next().value!);
    statements.set(sql, prepared);
    return prepared;
  } as typeof prepare;
}
