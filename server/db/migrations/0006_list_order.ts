import type { Kysely } from 'kysely';

/**
 * Indexes in each list's full order, so that a page of namespaces, flags or segments (and the page
 * after a page token) is read from an index at any size; they replace the created-at-only indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('flags_created_idx').execute();
  await db.schema.dropIndex('segments_created_idx').execute();
  await db.schema.createIndex('flags_list_idx').on('flags').columns(['namespace_key', 'created_at', 'key']).execute();
  await db.schema
    .createIndex('segments_list_idx')
    .on('segments')
    .columns(['namespace_key', 'created_at', 'key'])
    .execute();
  await db.schema.createIndex('namespaces_list_idx').on('namespaces').columns(['created_at', 'key']).execute();
}
