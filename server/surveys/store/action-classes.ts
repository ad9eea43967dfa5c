/** Action classes (what the widget tracks) and the actions people performed. */
import type { TActionClass } from '../../../domain/surveys/types.js';
import type { Executor } from '../../db/executor.js';
import type { SurveyActionClassesTable } from '../../db/schema.js';
import type { ActionClassInput } from '../documents.js';
import { cuid } from '../ids.js';
import { inCreationOrder, now, type Page } from './shared.js';

/** The three action classes every environment is created with. */
export const AUTOMATIC_ACTIONS = ['New Session', 'Exit Intent (Desktop)', '50% Scroll'] as const;

/**
 * What anonymous visitors may add through the client API: action names are short in Formbricks, and an
 * environment holds at most this many action classes the client created (docs/compatibility.md).
 */
export const MAX_ACTION_NAME_LENGTH = 128;
export const MAX_CLIENT_ACTION_CLASSES = 500;

export async function actionClasses(executor: Executor, environmentId: string, page?: Page): Promise<TActionClass[]> {
  const query = executor.db.selectFrom('survey_action_classes').selectAll().where('environment_id', '=', environmentId);
  const rows = await inCreationOrder(query, page).execute();
  return rows.map(actionClassFromRow);
}

/** The no-code action classes, the only ones the widget's sync sends (read by SQL: visitors create the others). */
export async function noCodeActionClasses(executor: Executor, environmentId: string): Promise<TActionClass[]> {
  const query = executor.db
    .selectFrom('survey_action_classes')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('type', '=', 'noCode');
  const rows = await inCreationOrder(query).execute();
  return rows.map(actionClassFromRow);
}

/**
 * The id of the named action class for an action the client reports, created with `type` when missing,
 * unless the environment already holds `MAX_CLIENT_ACTION_CLASSES` that clients created (undefined).
 */
export async function clientActionClass(
  executor: Executor,
  environmentId: string,
  name: string,
  type: 'code' | 'automatic',
): Promise<string | undefined> {
  const existing = await actionClassByName(executor, environmentId, name);
  if (existing) return existing.id;
  const { count } = await executor.db
    .selectFrom('survey_action_classes')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('environment_id', '=', environmentId)
    .where('type', 'in', ['code', 'automatic'])
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_CLIENT_ACTION_CLASSES) return undefined;
  return ensureActionClass(executor, environmentId, name, type);
}

/** An action class in the console: the surveys it triggers and when it last fired. */
export interface ActionClassUsage extends TActionClass {
  surveys: { id: string; name: string }[];
  lastFiredAt: string | null;
}

export async function actionClassesWithUsage(executor: Executor, environmentId: string): Promise<ActionClassUsage[]> {
  const [list, fired, surveyRows] = await Promise.all([
    actionClasses(executor, environmentId),
    executor.db
      .selectFrom('survey_actions')
      .select(['action_class_id', (eb) => eb.fn.max('created_at').as('last')])
      .where('environment_id', '=', environmentId)
      .groupBy('action_class_id')
      .execute(),
    executor.db
      .selectFrom('surveys')
      .select(['id', 'name', 'document'])
      .where('environment_id', '=', environmentId)
      .orderBy('name')
      .execute(),
  ]);
  const lastFired = new Map(fired.map((row) => [row.action_class_id, row.last as string]));
  const triggers = surveyRows.map((row) => ({
    id: row.id,
    name: row.name,
    triggers: (JSON.parse(row.document) as { triggers?: string[] }).triggers ?? [],
  }));
  return list.map((actionClass) => ({
    ...actionClass,
    surveys: triggers.filter((s) => s.triggers.includes(actionClass.name)).map(({ id, name }) => ({ id, name })),
    lastFiredAt: lastFired.get(actionClass.id) ?? null,
  }));
}

export async function actionClass(executor: Executor, id: string): Promise<TActionClass | undefined> {
  const row = await executor.db.selectFrom('survey_action_classes').selectAll().where('id', '=', id).executeTakeFirst();
  return row && actionClassFromRow(row);
}

export async function actionClassByName(
  executor: Executor,
  environmentId: string,
  name: string,
): Promise<TActionClass | undefined> {
  const row = await executor.db
    .selectFrom('survey_action_classes')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row && actionClassFromRow(row);
}

/** Creates the action class, or updates the one with the same name (seeding is idempotent). */
export async function saveActionClass(
  executor: Executor,
  environmentId: string,
  input: ActionClassInput,
): Promise<TActionClass> {
  const at = now();
  const values = {
    description: input.description,
    type: input.type,
    no_code_config: input.noCodeConfig ? JSON.stringify(input.noCodeConfig) : null,
    updated_at: at,
  };
  await executor.db
    .insertInto('survey_action_classes')
    .values({ id: cuid(), environment_id: environmentId, name: input.name, created_at: at, ...values })
    .onConflict((oc) => oc.columns(['environment_id', 'name']).doUpdateSet(values))
    .execute();
  return (await actionClassByName(executor, environmentId, input.name))!;
}

/** Changes an action class's name, description, type and no-code rule; its id and usage stay. */
export async function updateActionClass(
  executor: Executor,
  id: string,
  input: ActionClassInput,
): Promise<TActionClass | undefined> {
  await executor.db
    .updateTable('survey_action_classes')
    .set({
      name: input.name,
      description: input.description,
      type: input.type,
      no_code_config: input.noCodeConfig ? JSON.stringify(input.noCodeConfig) : null,
      updated_at: now(),
    })
    .where('id', '=', id)
    .execute();
  return actionClass(executor, id);
}

export async function deleteActionClass(executor: Executor, id: string): Promise<void> {
  await executor.db.deleteFrom('survey_action_classes').where('id', '=', id).execute();
}

/** The id of the named action class, created with `type` when missing. */
export async function ensureActionClass(
  executor: Executor,
  environmentId: string,
  name: string,
  type: TActionClass['type'],
): Promise<string> {
  const existing = await executor.db
    .selectFrom('survey_action_classes')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.id;
  const id = cuid();
  const at = now();
  await executor.db
    .insertInto('survey_action_classes')
    .values({
      id,
      environment_id: environmentId,
      name,
      description: null,
      type,
      no_code_config: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['environment_id', 'name']).doNothing())
    .execute();
  return (
    await executor.db
      .selectFrom('survey_action_classes')
      .select('id')
      .where('environment_id', '=', environmentId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).id;
}

export async function recordAction(
  executor: Executor,
  environmentId: string,
  personId: string,
  actionClassId: string,
): Promise<void> {
  const at = now();
  await executor.db
    .insertInto('survey_actions')
    .values({
      id: cuid(),
      environment_id: environmentId,
      person_id: personId,
      action_class_id: actionClassId,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

function actionClassFromRow(row: SurveyActionClassesTable): TActionClass {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    description: row.description,
    type: row.type as TActionClass['type'],
    noCodeConfig: row.no_code_config ? JSON.parse(row.no_code_config) : null,
    environmentId: row.environment_id,
  };
}
