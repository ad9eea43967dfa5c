/** Displays: a survey shown to a visitor, later tied to the person and the response. */
import { type Executor, inTransaction } from '../../db/executor.js';
import { cuid } from '../ids.js';
import type { FlagAssignment } from '../../../domain/surveys/eligibility.js';
import { assignmentColumns, assignmentOf } from './links.js';
import { displayAdded } from './rollups.js';
import { guardDisplayAdded } from '../../guards/store.js';
import { inCreationOrder, now, type Page } from './shared.js';

export interface DisplayRecord {
  id: string;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  surveyId: string;
  personId: string | null;
  responseId: string | null;
  /** What the survey's linked flag gave the visitor when it was shown; null for a survey with no link. */
  flag: FlagAssignment | null;
}

export async function createDisplay(
  executor: Executor,
  environmentId: string,
  surveyId: string,
  personId: string | null,
  flag: FlagAssignment | null = null,
): Promise<string> {
  const id = cuid();
  const at = now();
  await inTransaction(executor, async (trx) => {
    await trx.db
      .insertInto('survey_displays')
      .values({
        id,
        environment_id: environmentId,
        survey_id: surveyId,
        person_id: personId,
        response_id: null,
        ...assignmentColumns(flag),
        created_at: at,
        updated_at: at,
      })
      .execute();
    await displayAdded(trx, surveyId, at);
    await guardDisplayAdded(trx, surveyId, flag);
  });
  return id;
}

export async function display(executor: Executor, id: string): Promise<DisplayRecord | undefined> {
  const row = await executor.db.selectFrom('survey_displays').selectAll().where('id', '=', id).executeTakeFirst();
  return row && displayFromRow(row);
}

export interface DisplayChanges {
  responseId?: string;
  personId?: string;
}

export async function updateDisplay(executor: Executor, id: string, changes: DisplayChanges): Promise<void> {
  await executor.db
    .updateTable('survey_displays')
    .set({
      ...(changes.responseId !== undefined ? { response_id: changes.responseId } : {}),
      ...(changes.personId !== undefined ? { person_id: changes.personId } : {}),
      updated_at: now(),
    })
    .where('id', '=', id)
    .execute();
}

/** The person's displays, newest first. */
export async function displaysOfPerson(executor: Executor, personId: string): Promise<DisplayRecord[]> {
  const rows = await executor.db
    .selectFrom('survey_displays')
    .selectAll()
    .where('person_id', '=', personId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(displayFromRow);
}

export async function displays(
  executor: Executor,
  environmentId: string,
  surveyId?: string,
  page?: Page,
): Promise<DisplayRecord[]> {
  let query = executor.db.selectFrom('survey_displays').selectAll().where('environment_id', '=', environmentId);
  if (surveyId) query = query.where('survey_id', '=', surveyId);
  const rows = await inCreationOrder(query, page).execute();
  return rows.map(displayFromRow);
}

function displayFromRow(row: {
  id: string;
  environment_id: string;
  survey_id: string;
  person_id: string | null;
  response_id: string | null;
  created_at: string;
  updated_at: string;
  flag_key: string | null;
  flag_variant: string | null;
  flag_reason: string | null;
}): DisplayRecord {
  return {
    id: row.id,
    environmentId: row.environment_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    surveyId: row.survey_id,
    personId: row.person_id,
    responseId: row.response_id,
    flag: assignmentOf(row),
  };
}
