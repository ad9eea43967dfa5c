/** People (a userId within an environment) and their attributes. */
import { type Executor, inTransaction } from '../../db/executor.js';
import { badRequest, SurveyApiError } from '../errors.js';
import { cuid } from '../ids.js';
import { inCreationOrder, now, type Page } from './shared.js';

/**
 * Bounds on a person's attributes (Formbricks sets none): they are sent to the widget with every
 * sync of that person, and one anonymous request with 20,000 of them stalled the server for seconds.
 */
export const MAX_ATTRIBUTES_PER_PERSON = 150;
export const MAX_ATTRIBUTE_KEY_LENGTH = 128;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 1024;

export interface PersonRecord {
  id: string;
  userId: string;
  environmentId: string;
  attributes: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/**
 * The person's id, created when the environment has no person with that userId yet, unless it holds `maxPeople`
 * already (then a 403 naming the limit: anonymous callers must not grow the table without bound).
 */
export async function ensurePerson(
  executor: Executor,
  environmentId: string,
  userId: string,
  maxPeople: number,
): Promise<string> {
  const find = () =>
    executor.db
      .selectFrom('survey_people')
      .select('id')
      .where('environment_id', '=', environmentId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return existing.id;
  const { held } = await executor.db
    .selectFrom('survey_people')
    .select((eb) => eb.fn.countAll<number>().as('held'))
    .where('environment_id', '=', environmentId)
    .executeTakeFirstOrThrow();
  if (Number(held) >= maxPeople) {
    throw new SurveyApiError(403, 'forbidden', `The environment holds at most ${maxPeople} people`);
  }
  const at = now();
  await executor.db
    .insertInto('survey_people')
    .values({ id: cuid(), environment_id: environmentId, user_id: userId, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['environment_id', 'user_id']).doNothing())
    .execute();
  return (await find())!.id;
}

export async function people(executor: Executor, environmentId: string, page?: Page): Promise<PersonRecord[]> {
  const query = executor.db.selectFrom('survey_people').selectAll().where('environment_id', '=', environmentId);
  const rows = await inCreationOrder(query, page).execute();
  const attributesById = await attributesOf(
    executor,
    rows.map((row) => row.id),
  );
  return rows.map((row) => personFromRow(row, attributesById.get(row.id) ?? {}));
}

export async function person(executor: Executor, id: string): Promise<PersonRecord | undefined> {
  const row = await executor.db.selectFrom('survey_people').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return personFromRow(row, (await attributesOf(executor, [id])).get(id) ?? {});
}

export async function deletePerson(executor: Executor, id: string): Promise<void> {
  await executor.db.deleteFrom('survey_people').where('id', '=', id).execute();
}

export async function attributes(executor: Executor, personId: string): Promise<Record<string, string>> {
  return (await attributesOf(executor, [personId])).get(personId) ?? {};
}

async function attributesOf(executor: Executor, personIds: string[]): Promise<Map<string, Record<string, string>>> {
  const result = new Map<string, Record<string, string>>();
  if (personIds.length === 0) return result;
  const rows = await executor.db
    .selectFrom('survey_attributes')
    .selectAll()
    .where('person_id', 'in', personIds)
    .orderBy('key')
    .execute();
  for (const row of rows) {
    const ofPerson = result.get(row.person_id) ?? {};
    ofPerson[row.key] = row.value;
    result.set(row.person_id, ofPerson);
  }
  return result;
}

/**
 * Sets the given attributes and returns whether any value changed; refused when the person would have
 * more than MAX_ATTRIBUTES_PER_PERSON.
 */
export async function updateAttributes(
  executor: Executor,
  personId: string,
  given: Record<string, string>,
): Promise<boolean> {
  const current = await attributes(executor, personId);
  const changed = Object.entries(given).filter(([key, value]) => current[key] !== value);
  if (changed.length === 0) return false;
  if (new Set([...Object.keys(current), ...Object.keys(given)]).size > MAX_ATTRIBUTES_PER_PERSON) {
    throw badRequest(`a person may have at most ${MAX_ATTRIBUTES_PER_PERSON} attributes`);
  }
  await inTransaction(executor, async (trx) => {
    const at = now();
    for (const [key, value] of changed) {
      await trx.db
        .insertInto('survey_attributes')
        .values({ person_id: personId, key, value, created_at: at, updated_at: at })
        .onConflict((oc) => oc.columns(['person_id', 'key']).doUpdateSet({ value, updated_at: at }))
        .execute();
    }
    await trx.db.updateTable('survey_people').set({ updated_at: at }).where('id', '=', personId).execute();
  });
  return true;
}

function personFromRow(
  row: { id: string; user_id: string; environment_id: string; created_at: string; updated_at: string },
  attributes: Record<string, string>,
): PersonRecord {
  return {
    id: row.id,
    userId: row.user_id,
    environmentId: row.environment_id,
    attributes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
