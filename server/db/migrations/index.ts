import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from './context.js';
import * as namespaces from './0001_namespaces.js';
import * as flipt from './0002_flipt.js';
import * as analytics from './0003_analytics.js';
import * as auth from './0004_auth.js';
import * as surveys from './0005_surveys.js';
import * as listOrder from './0006_list_order.js';
import * as foreignKeyIndexes from './0007_foreign_key_indexes.js';
import * as surveyNamespaces from './0008_survey_namespaces.js';
import * as surveyResults from './0009_survey_results.js';
import * as history from './0010_history.js';
import * as surveyFlagLinks from './0012_survey_flag_links.js';
import * as surveyResultRollups from './0013_survey_result_rollups.js';
import * as webhookPayloads from './0014_webhook_payloads.js';
import * as flagGuards from './0015_flag_guards.js';
import * as surveySdkGenerations from './0016_survey_sdk_generations.js';
import * as flagGuardArmTriggers from './0017_flag_guard_arm_triggers.js';

// Migrations import their context from context.ts (importing this file, which imports them, is a circle).
export type { MigrationContext };

interface MigrationModule {
  up(db: Kysely<any>, context: MigrationContext): Promise<void>;
}

/**
 * Every migration, in the order they run. Names sort in that order, because
 * Kysely's migrator checks the names it has already applied against it.
 * Each area appends its own module here.
 */
const modules: Record<string, MigrationModule> = {
  '0001_namespaces': namespaces,
  '0002_flipt': flipt,
  '0003_analytics': analytics,
  '0004_auth': auth,
  '0005_surveys': surveys,
  '0006_list_order': listOrder,
  '0007_foreign_key_indexes': foreignKeyIndexes,
  '0008_survey_namespaces': surveyNamespaces,
  '0009_survey_results': surveyResults,
  '0010_history': history,
  '0012_survey_flag_links': surveyFlagLinks,
  '0013_survey_result_rollups': surveyResultRollups,
  '0014_webhook_payloads': webhookPayloads,
  '0015_flag_guards': flagGuards,
  '0016_survey_sdk_generations': surveySdkGenerations,
  '0017_flag_guard_arm_triggers': flagGuardArmTriggers,
};

export function migrationsFor(dialect: MigrationContext['dialect']): Record<string, Migration> {
  const context = { dialect };
  return Object.fromEntries(
    Object.entries(modules).map(([name, module]) => [name, { up: (db: Kysely<any>) => module.up(db, context) }]),
  );
}
