/** Survey documents, stored whole as JSON, with their trigger names' action classes. */
import type { TSurvey } from '../../../domain/surveys/types.js';
import { type Executor, inTransaction } from '../../db/executor.js';
import type { SurveyDocument } from '../documents.js';
import { checkLinks } from './links.js';
import { cuid } from '../ids.js';
import { ensureActionClass } from './action-classes.js';
import { surveySaved } from './rollups.js';
import { now } from './shared.js';

export async function surveys(executor: Executor, environmentId: string): Promise<TSurvey[]> {
  const rows = await executor.db
    .selectFrom('surveys')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(surveyFromRow);
}

/** A survey in the console's list: with how many times it was shown and answered. */
export interface SurveySummary extends TSurvey {
  displayCount: number;
  responseCount: number;
}

export async function surveysWithCounts(executor: Executor, environmentId: string): Promise<SurveySummary[]> {
  const count = (table: 'survey_displays' | 'survey_responses') =>
    executor.db
      .selectFrom(table)
      .select(['survey_id', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
      .where('environment_id', '=', environmentId)
      .groupBy('survey_id')
      .execute()
      .then((rows) => new Map(rows.map((row) => [row.survey_id, Number(row.count)])));
  const [list, displayCounts, responseCounts] = await Promise.all([
    surveys(executor, environmentId),
    count('survey_displays'),
    count('survey_responses'),
  ]);
  return list.map((survey) => ({
    ...survey,
    displayCount: displayCounts.get(survey.id) ?? 0,
    responseCount: responseCounts.get(survey.id) ?? 0,
  }));
}

export async function survey(executor: Executor, id: string): Promise<TSurvey | undefined> {
  const row = await executor.db.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && surveyFromRow(row);
}

/** Creates the survey, or replaces the document of the survey with that id; trigger names get code action classes. */
export async function saveSurvey(
  executor: Executor,
  environmentId: string,
  name: string,
  document: SurveyDocument,
  id = cuid(),
): Promise<TSurvey> {
  await inTransaction(executor, async (trx) => {
    await checkLinks(trx, environmentId, document);
    const at = now();
    const json = JSON.stringify(document);
    const links = { linked_flag_key: document.linkedFlag?.flagKey ?? null, segment_key: document.segmentKey ?? null };
    await trx.db
      .insertInto('surveys')
      .values({ id, environment_id: environmentId, name, document: json, ...links, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ name, document: json, ...links, updated_at: at }))
      .execute();
    await surveySaved(trx, { id, ...document });
    for (const trigger of document.triggers) await ensureActionClass(trx, environmentId, trigger, 'code');
  });
  return (await survey(executor, id))!;
}

/**
 * Marks the survey completed once it has `autoComplete` responses, as Formbricks does when a response
 * finishes.
 */
export async function completeIfDue(executor: Executor, surveyId: string): Promise<void> {
  const found = await survey(executor, surveyId);
  if (!found || found.autoComplete === null || found.status === 'completed') return;
  const { count } = await executor.db
    .selectFrom('survey_responses')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('survey_id', '=', surveyId)
    .executeTakeFirstOrThrow();
  if (Number(count) < found.autoComplete) return;
  const { id, createdAt: _c, updatedAt: _u, environmentId: _e, name: _n, ...document } = found;
  await executor.db
    .updateTable('surveys')
    .set({ document: JSON.stringify({ ...document, status: 'completed' }), updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function deleteSurvey(executor: Executor, id: string): Promise<void> {
  await executor.db.deleteFrom('surveys').where('id', '=', id).execute();
}

function surveyFromRow(row: {
  id: string;
  environment_id: string;
  name: string;
  document: string;
  created_at: string;
  updated_at: string;
}): TSurvey {
  const document = JSON.parse(row.document) as SurveyDocument;
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    environmentId: row.environment_id,
    ...document,
    // Documents stored before surveys could link flags have neither key.
    linkedFlag: document.linkedFlag ?? null,
    segmentKey: document.segmentKey ?? null,
  };
}
