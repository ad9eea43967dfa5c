import type { Kysely } from 'kysely';

/**
 * The SDK generations whose widgets have synced with an environment (comma-separated, in the order first
 * seen: `1.6` for `init()`, `5` for the `setup()` today's @formbricks/js calls, `current` for today's
 * client wire), for the console to say which SDKs a site runs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('survey_environments')
    .addColumn('sdk_generations', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
}
