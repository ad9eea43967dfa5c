import type { Kysely } from 'kysely';
import { timestamps } from './columns.js';

/**
 * Feedback guards: a flag's rollout watched through the answers of a linked survey. A guard's arms hold running
 * sums per value of the flag (displays, answers, their sum and sum of squares), kept by the display and
 * response writes in their own transaction; `revision` counts those writes and `assessed_revision` the
 * last one the guard's verdict was made from, so an instance finds the guards to look at again by comparing the two.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await timestamps(
    db.schema
      .createTable('flag_guards')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('flag_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
      .addColumn('environment_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('question_id', 'varchar(255)', (c) => c.notNull())
      // What an answer to the question counts as: nps, rating, or share (of `answer`, a choice).
      .addColumn('measure', 'varchar(16)', (c) => c.notNull())
      .addColumn('answer', 'text')
      .addColumn('baseline', 'varchar(255)', (c) => c.notNull())
      .addColumn('minimum_regression', 'double precision', (c) => c.notNull())
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('error_rate', 'double precision', (c) => c.notNull())
      .addColumn('minimum_sample', 'integer', (c) => c.notNull())
      .addColumn('state', 'varchar(32)', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      // The verdict's difference as JSON ({estimate, lower, upper}), or null.
      .addColumn('difference', 'text')
      .addColumn('acted_at', 'varchar(40)')
      .addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('assessed_revision', 'bigint', (c) => c.notNull().defaultTo(-1)),
  )
    .addForeignKeyConstraint(
      'flag_guards_flag_fk',
      ['namespace_key', 'flag_key'],
      'flags',
      ['namespace_key', 'key'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('flag_guards_flag_idx')
    .on('flag_guards')
    .columns(['namespace_key', 'flag_key'])
    .execute();
  await db.schema.createIndex('flag_guards_survey_idx').on('flag_guards').column('survey_id').execute();
  await db.schema
    .createTable('flag_guard_arms')
    .addColumn('guard_id', 'varchar(64)', (c) => c.notNull().references('flag_guards.id').onDelete('cascade'))
    .addColumn('arm', 'varchar(255)', (c) => c.notNull())
    .addColumn('displays', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('answers', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('total_of_squares', 'double precision', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('flag_guard_arms_pk', ['guard_id', 'arm'])
    .execute();
}
