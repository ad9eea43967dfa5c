import type { Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * The change history: one row per write to a namespace, flag or segment, written in the write's own
 * transaction. `id` orders the rows (keyset pages, the audit sinks' cursors); `before` and `after`
 * are JSON of the whole entity (a flag with its variants, rules and rollouts; a segment with its
 * constraints), null when it did not or no longer exists; `payload` is the audit event's payload.
 * `audit_cursors` keeps, per sink, the last row delivered, so a sink resumes where it stopped.
 * No foreign keys: the history of a deleted namespace stays until retention removes it.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('history')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('entity_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('entity_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('noun', 'varchar(16)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor', 'varchar(255)', (c) => c.notNull())
    .addColumn('actor_metadata', 'text', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('history_namespace_idx').on('history').columns(['namespace_key', 'id']).execute();
  await db.schema
    .createIndex('history_entity_idx')
    .on('history')
    .columns(['namespace_key', 'entity_type', 'entity_key', 'id'])
    .execute();
  await db.schema.createIndex('history_actor_idx').on('history').columns(['namespace_key', 'actor', 'id']).execute();
  await db.schema.createIndex('history_created_idx').on('history').columns(['created_at']).execute();
  await db.schema
    .createTable('audit_cursors')
    .addColumn('sink', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('lease_until', 'varchar(40)', (c) => c.notNull())
    .execute();
}
