import type { Kysely } from 'kysely';

/**
 * A namespace is a survey product: each product belongs to one namespace (the environments of a seed
 * file that names none belong to `default`). Management API keys remember who may see them in the
 * console: a label and the first characters of the key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('survey_products')
    .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull().defaultTo('default'))
    .execute();
  await db.schema.createIndex('survey_products_namespace_idx').on('survey_products').column('namespace_key').execute();
  await db.schema
    .alterTable('survey_api_keys')
    .addColumn('key_prefix', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .execute();
}
