import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * A write to a guard's arms bumps the guard's `revision` in the same statement, by a trigger: the display and
 * response writes, which hold SQLite's one write lock while they run, then spend one statement on a guard rather
 * than two (bench/guards). The monitor finds the guards to assess as before, by `revision <> assessed_revision`.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  const bump = sql.raw('update flag_guards set revision = revision + 1 where id = new.guard_id');
  if (dialect === 'postgres') {
    await sql`create function flag_guard_arms_moved() returns trigger language plpgsql as $$
      begin ${bump}; return null; end $$`.execute(db);
    await sql`create trigger flag_guard_arms_moved after insert or update on flag_guard_arms
      for each row execute function flag_guard_arms_moved()`.execute(db);
    return;
  }
  for (const [name, event] of [
    ['flag_guard_arms_added', 'insert'],
    ['flag_guard_arms_moved', 'update'],
  ] as const)
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on flag_guard_arms
      begin ${bump}; end`.execute(db);
}
