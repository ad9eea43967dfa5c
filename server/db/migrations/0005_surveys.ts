import type { CreateTableBuilder, Kysely } from 'kysely';
import { timestamps } from './columns.js';

/**
 * The survey provider (Formbricks 1.6 data model): products and their environments, surveys (each a JSON
 * document), action classes, people and their attributes, displays, responses, uploaded files and the
 * management API keys. Everything hangs off an environment and is deleted with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await timestamps(
    db.schema
      .createTable('survey_products')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull()),
  ).execute();

  await timestamps(
    db.schema
      .createTable('survey_environments')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('product_id', 'varchar(64)', (c) => c.notNull().references('survey_products.id').onDelete('cascade'))
      .addColumn('type', 'varchar(20)', (c) => c.notNull())
      .addColumn('widget_setup_completed', 'boolean', (c) => c.notNull().defaultTo(false)),
  ).execute();

  const environmentId = (table: CreateTableBuilder<string, string>) =>
    table.addColumn('environment_id', 'varchar(64)', (c) =>
      c.notNull().references('survey_environments.id').onDelete('cascade'),
    );

  await timestamps(
    environmentId(db.schema.createTable('surveys').addColumn('id', 'varchar(64)', (c) => c.primaryKey()))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('surveys_environment_idx')
    .on('surveys')
    .columns(['environment_id', 'updated_at'])
    .execute();

  await timestamps(
    environmentId(db.schema.createTable('survey_action_classes').addColumn('id', 'varchar(64)', (c) => c.primaryKey()))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('type', 'varchar(20)', (c) => c.notNull())
      .addColumn('no_code_config', 'text'),
  )
    .addUniqueConstraint('survey_action_classes_name_unique', ['environment_id', 'name'])
    .execute();

  await timestamps(
    environmentId(
      db.schema.createTable('survey_people').addColumn('id', 'varchar(64)', (c) => c.primaryKey()),
    ).addColumn('user_id', 'varchar(255)', (c) => c.notNull()),
  )
    .addUniqueConstraint('survey_people_user_unique', ['environment_id', 'user_id'])
    .execute();

  await timestamps(
    db.schema
      .createTable('survey_attributes')
      .addColumn('person_id', 'varchar(64)', (c) => c.notNull().references('survey_people.id').onDelete('cascade'))
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('survey_attributes_pk', ['person_id', 'key'])
    .execute();

  await timestamps(
    environmentId(db.schema.createTable('survey_actions').addColumn('id', 'varchar(64)', (c) => c.primaryKey()))
      .addColumn('person_id', 'varchar(64)', (c) => c.notNull().references('survey_people.id').onDelete('cascade'))
      .addColumn('action_class_id', 'varchar(64)', (c) =>
        c.notNull().references('survey_action_classes.id').onDelete('cascade'),
      ),
  ).execute();

  await timestamps(
    environmentId(db.schema.createTable('survey_responses').addColumn('id', 'varchar(64)', (c) => c.primaryKey()))
      .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
      .addColumn('person_id', 'varchar(64)', (c) => c.references('survey_people.id').onDelete('set null'))
      .addColumn('finished', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('ttc', 'text', (c) => c.notNull())
      .addColumn('meta', 'text', (c) => c.notNull())
      .addColumn('person_attributes', 'text'),
  ).execute();
  await db.schema
    .createIndex('survey_responses_survey_idx')
    .on('survey_responses')
    .columns(['survey_id', 'created_at'])
    .execute();

  await timestamps(
    environmentId(db.schema.createTable('survey_displays').addColumn('id', 'varchar(64)', (c) => c.primaryKey()))
      .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
      .addColumn('person_id', 'varchar(64)', (c) => c.references('survey_people.id').onDelete('set null'))
      .addColumn('response_id', 'varchar(64)', (c) => c.references('survey_responses.id').onDelete('set null')),
  ).execute();
  await db.schema
    .createIndex('survey_displays_person_idx')
    .on('survey_displays')
    .columns(['person_id', 'created_at'])
    .execute();

  await environmentId(db.schema.createTable('survey_files').addColumn('id', 'varchar(64)', (c) => c.primaryKey()))
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('file_name', 'varchar(512)', (c) => c.notNull())
    .addColumn('file_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addUniqueConstraint('survey_files_name_unique', ['environment_id', 'file_name'])
    .execute();

  await environmentId(db.schema.createTable('survey_api_keys').addColumn('id', 'varchar(64)', (c) => c.primaryKey()))
    .addColumn('hashed_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .execute();
}
