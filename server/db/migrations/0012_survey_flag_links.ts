import type { Kysely } from 'kysely';

/**
 * Feedback by variant: a survey's linked flag and targeted segment as columns (so deleting a flag or a
 * segment can find the surveys that use it), and on every display and response the flag's answer at
 * display time, so later changes to the flag's rules do not rewrite history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('linked_flag_key', 'varchar(255)').execute();
  await db.schema.alterTable('surveys').addColumn('segment_key', 'varchar(255)').execute();
  await db.schema.createIndex('surveys_linked_flag_idx').on('surveys').column('linked_flag_key').execute();
  await db.schema.createIndex('surveys_segment_idx').on('surveys').column('segment_key').execute();
  for (const table of ['survey_displays', 'survey_responses']) {
    await db.schema.alterTable(table).addColumn('flag_key', 'varchar(255)').execute();
    await db.schema.alterTable(table).addColumn('flag_variant', 'varchar(255)').execute();
    await db.schema.alterTable(table).addColumn('flag_reason', 'varchar(64)').execute();
  }
}
