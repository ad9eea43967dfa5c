import type { Kysely } from 'kysely';

/**
 * Indexes on the foreign-key columns that had none. Deleting a flag, variant, rule or segment makes
 * the database look up the rows that refer to it, once per deleted row: without these, each look-up
 * read the whole referring table, and emptying a namespace of 100,000 flags (`ensign import --drop`)
 * took minutes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('distributions_rule_idx').on('distributions').column('rule_id').execute();
  await db.schema.createIndex('distributions_variant_idx').on('distributions').column('variant_id').execute();
  await db.schema
    .createIndex('constraints_segment_idx')
    .on('constraints')
    .columns(['namespace_key', 'segment_key'])
    .execute();
  await db.schema
    .createIndex('rule_segments_segment_idx')
    .on('rule_segments')
    .columns(['namespace_key', 'segment_key'])
    .execute();
  await db.schema
    .createIndex('rollout_segment_references_segment_idx')
    .on('rollout_segment_references')
    .columns(['namespace_key', 'segment_key'])
    .execute();
}
