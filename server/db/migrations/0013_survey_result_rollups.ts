import type { Kysely } from 'kysely';

/**
 * Survey result rollups (#31's budgets: a summary in a second at a million responses): per survey, UTC
 * day, finished and answer pattern the number of responses; per day, finished and question the sums of the times
 * to complete; per day the displays; and which survey definition the patterns were made for. The
 * response and display writes keep them in their own transaction (server/surveys/store/rollups.ts).
 * The survey provider fills them from the responses and displays already stored when it starts
 * (`fillMissingRollups`): making a pattern is application code, which no migration runs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const survey = (c: any) => c.notNull().references('surveys.id').onDelete('cascade');
  await db.schema
    .createTable('survey_result_rollups')
    .addColumn('survey_id', 'varchar(64)', (c) => c.primaryKey().references('surveys.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('survey_result_groups')
    .addColumn('survey_id', 'varchar(64)', survey)
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('finished', 'boolean', (c) => c.notNull())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('responses', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_result_groups_pk', ['survey_id', 'day', 'finished', 'pattern'])
    .execute();
  await db.schema
    .createTable('survey_result_times')
    .addColumn('survey_id', 'varchar(64)', survey)
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('finished', 'boolean', (c) => c.notNull())
    .addColumn('question_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('total', 'double precision', (c) => c.notNull())
    .addColumn('answers', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_result_times_pk', ['survey_id', 'day', 'finished', 'question_id'])
    .execute();
  await db.schema
    .createTable('survey_result_displays')
    .addColumn('survey_id', 'varchar(64)', survey)
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('displays', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_result_displays_pk', ['survey_id', 'day'])
    .execute();
}
