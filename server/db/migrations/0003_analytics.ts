import type { Kysely } from 'kysely';

/** Flag evaluation counts per namespace, flag and minute, for the analytics endpoint. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('flag_evaluation_counts')
    .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('flag_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('minute', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('flag_evaluation_counts_pk', ['namespace_key', 'flag_key', 'minute'])
    .execute();
}
