import type { Kysely } from 'kysely';
import { timestamps } from './columns.js';

/**
 * Survey results: the indexes the summary, trends and keyset-paged list read by (a survey's responses
 * and displays in creation order), response tags and notes as Formbricks 1.6 had them, webhooks and
 * their durable delivery queue.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The list pages by (created_at, id); the old index had no id to break ties with.
  await db.schema.dropIndex('survey_responses_survey_idx').execute();
  await db.schema
    .createIndex('survey_responses_survey_idx')
    .on('survey_responses')
    .columns(['survey_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('survey_responses_environment_idx')
    .on('survey_responses')
    .columns(['environment_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('survey_displays_survey_idx')
    .on('survey_displays')
    .columns(['survey_id', 'created_at'])
    .execute();

  await timestamps(
    db.schema
      .createTable('survey_tags')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('environment_id', 'varchar(64)', (c) =>
        c.notNull().references('survey_environments.id').onDelete('cascade'),
      )
      .addColumn('name', 'varchar(255)', (c) => c.notNull()),
  )
    .addUniqueConstraint('survey_tags_name_unique', ['environment_id', 'name'])
    .execute();

  await db.schema
    .createTable('survey_response_tags')
    .addColumn('response_id', 'varchar(64)', (c) => c.notNull().references('survey_responses.id').onDelete('cascade'))
    .addColumn('tag_id', 'varchar(64)', (c) => c.notNull().references('survey_tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('survey_response_tags_pk', ['response_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('survey_response_tags_tag_idx').on('survey_response_tags').column('tag_id').execute();

  await timestamps(
    db.schema
      .createTable('survey_response_notes')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('response_id', 'varchar(64)', (c) => c.notNull().references('survey_responses.id').onDelete('cascade'))
      .addColumn('author', 'varchar(255)', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('is_resolved', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('is_edited', 'boolean', (c) => c.notNull().defaultTo(false)),
  ).execute();
  await db.schema
    .createIndex('survey_response_notes_response_idx')
    .on('survey_response_notes')
    .columns(['response_id', 'created_at'])
    .execute();

  await timestamps(
    db.schema
      .createTable('survey_webhooks')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('environment_id', 'varchar(64)', (c) =>
        c.notNull().references('survey_environments.id').onDelete('cascade'),
      )
      .addColumn('name', 'varchar(255)')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('source', 'varchar(20)', (c) => c.notNull())
      // JSON arrays of strings.
      .addColumn('triggers', 'text', (c) => c.notNull())
      .addColumn('survey_ids', 'text', (c) => c.notNull())
      .addColumn('secret', 'varchar(255)', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('survey_webhooks_environment_idx')
    .on('survey_webhooks')
    .column('environment_id')
    .execute();

  // One row per event and webhook until it is delivered (then deleted) or given up on (status failed).
  await db.schema
    .createTable('survey_webhook_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('webhook_id', 'varchar(64)', (c) => c.notNull().references('survey_webhooks.id').onDelete('cascade'))
    .addColumn('event', 'varchar(40)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('survey_webhook_deliveries_due_idx')
    .on('survey_webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('survey_webhook_deliveries_webhook_idx')
    .on('survey_webhook_deliveries')
    .column('webhook_id')
    .execute();
}
