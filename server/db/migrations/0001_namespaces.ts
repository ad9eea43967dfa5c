import type { Kysely } from 'kysely';
import { timestampNow } from './columns.js';
import type { MigrationContext } from './context.js';

export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('namespaces')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('protected', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();

  const now = timestampNow();
  await db
    .insertInto('namespaces')
    .values({
      key: 'default',
      name: 'Default',
      description: 'Default namespace',
      protected: dialect === 'sqlite' ? 1 : true,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
