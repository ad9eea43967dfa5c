/** Responses, created by the widget and completed answer by answer. */
import type { TResponseData, TResponseTtc } from '../../../domain/surveys/types.js';
import { fromBool, toBool } from '../../db/codec.js';
import { type Executor, inTransaction } from '../../db/executor.js';
import { cuid } from '../ids.js';
import type { FlagAssignment } from '../../../domain/surveys/eligibility.js';
import { assignmentColumns, assignmentOf } from './links.js';
import { responseRollups } from './rollups.js';
import { guardAnswersMoved } from '../../guards/store.js';
import { now } from './shared.js';

export interface ResponseRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  surveyId: string;
  environmentId: string;
  person: { id: string; userId: string } | null;
  personAttributes: Record<string, string> | null;
  finished: boolean;
  data: TResponseData;
  ttc: TResponseTtc;
  meta: Record<string, unknown>;
  /** What the survey's linked flag gave the visitor when the survey was shown; null without a link. */
  flag: FlagAssignment | null;
}

export interface ResponseInput {
  environmentId: string;
  surveyId: string;
  personId: string | null;
  finished: boolean;
  data: TResponseData;
  meta: Record<string, unknown>;
  personAttributes: Record<string, string> | null;
  flag?: FlagAssignment | null;
}

export async function createResponse(executor: Executor, input: ResponseInput): Promise<string> {
  const id = cuid();
  const at = now();
  await inTransaction(executor, async (trx) => {
    await trx.db
      .insertInto('survey_responses')
      .values({
        id,
        environment_id: input.environmentId,
        survey_id: input.surveyId,
        person_id: input.personId,
        finished: fromBool(executor.dialect, input.finished),
        data: JSON.stringify(input.data),
        ttc: '{}',
        meta: JSON.stringify(input.meta),
        person_attributes: input.personAttributes ? JSON.stringify(input.personAttributes) : null,
        ...assignmentColumns(input.flag),
        created_at: at,
        updated_at: at,
      })
      .execute();
    const rollups = await responseRollups(trx, input.surveyId);
    if (rollups) await rollups.apply(undefined, await rollups.contribution(id));
    await guardAnswersMoved(trx, input.surveyId, input.flag ?? null, undefined, input.data);
  });
  return id;
}

export async function response(executor: Executor, id: string): Promise<ResponseRecord | undefined> {
  const row = await executor.db
    .selectFrom('survey_responses')
    .leftJoin('survey_people', 'survey_people.id', 'survey_responses.person_id')
    .selectAll('survey_responses')
    .select('survey_people.user_id')
    .where('survey_responses.id', '=', id)
    .executeTakeFirst();
  return row && { ...responseFromRow(row), flag: assignmentOf(row) };
}

/** A response's stored columns, with its person's user id (read through a left join of survey_people). */
export interface ResponseRow {
  id: string;
  created_at: string;
  updated_at: string;
  survey_id: string;
  environment_id: string;
  person_id: string | null;
  user_id: string | null;
  finished: number | boolean;
  data: string;
  ttc: string;
  meta: string;
  person_attributes: string | null;
}

/** A stored response as the API gives it (without the flag assignment, which only some readers select). */
export function responseFromRow(row: ResponseRow): Omit<ResponseRecord, 'flag'> {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    surveyId: row.survey_id,
    environmentId: row.environment_id,
    person: row.person_id && row.user_id ? { id: row.person_id, userId: row.user_id } : null,
    personAttributes: row.person_attributes ? JSON.parse(row.person_attributes) : null,
    finished: toBool(row.finished),
    data: JSON.parse(row.data),
    ttc: JSON.parse(row.ttc),
    meta: JSON.parse(row.meta),
  };
}

export interface ResponseUpdate {
  finished: boolean;
  data: TResponseData;
  ttc?: TResponseTtc;
}

/**
 * Shallow-merges `data` into the stored data and replaces the stored ttc; a finished response's ttc
 * gains `_total`, the sum of the others. Runs in one transaction so concurrent updates do not lose keys.
 * Returns the response's survey id, or undefined when the environment has no such response.
 */
export async function updateResponse(
  executor: Executor,
  environmentId: string,
  id: string,
  update: ResponseUpdate,
): Promise<string | undefined> {
  return inTransaction(executor, async (trx) => {
    const row = await trx.db
      .selectFrom('survey_responses')
      .select(['data', 'ttc', 'survey_id', 'flag_key', 'flag_variant', 'flag_reason'])
      .where('id', '=', id)
      .where('environment_id', '=', environmentId)
      .$if(executor.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) return undefined;
    const rollups = await responseRollups(trx, row.survey_id);
    const before = await rollups?.contribution(id);
    const stored = JSON.parse(row.data);
    const data = { ...stored, ...update.data };
    let ttc: TResponseTtc = update.ttc ?? JSON.parse(row.ttc);
    if (update.finished) {
      const { _total: _, ...steps } = ttc;
      ttc = { ...steps, _total: Object.values(steps).reduce((sum, value) => sum + value, 0) };
    }
    await trx.db
      .updateTable('survey_responses')
      .set({
        data: JSON.stringify(data),
        ttc: JSON.stringify(ttc),
        finished: fromBool(executor.dialect, update.finished),
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
    if (rollups) await rollups.apply(before, await rollups.contribution(id));
    await guardAnswersMoved(trx, row.survey_id, assignmentOf(row), stored, data);
    return row.survey_id;
  });
}

export async function deleteResponse(executor: Executor, id: string): Promise<void> {
  await inTransaction(executor, async (trx) => {
    const row = await trx.db
      .selectFrom('survey_responses')
      .select(['survey_id', 'data', 'flag_key', 'flag_variant', 'flag_reason'])
      .where('id', '=', id)
      .$if(executor.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) return;
    const rollups = await responseRollups(trx, row.survey_id);
    const before = await rollups?.contribution(id);
    await trx.db.deleteFrom('survey_responses').where('id', '=', id).execute();
    if (rollups) await rollups.apply(before, undefined);
    await guardAnswersMoved(trx, row.survey_id, assignmentOf(row), JSON.parse(row.data), undefined);
  });
}
