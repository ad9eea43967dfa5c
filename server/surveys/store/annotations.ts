/** Response tags (an environment's, by name) and notes, as Formbricks 1.6 had them. */
import { sql } from 'kysely';
import type { ResponseNote, ResponseTag } from '../../../domain/surveys/annotations.js';
import { fromBool, toBool } from '../../db/codec.js';
import { type Executor, inTransaction } from '../../db/executor.js';
import { cuid } from '../ids.js';
import { now } from './shared.js';

export type TagRecord = ResponseTag;
export type NoteRecord = ResponseNote;

export async function tags(executor: Executor, environmentId: string): Promise<TagRecord[]> {
  const rows = await executor.db
    .selectFrom('survey_tags')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .orderBy('name')
    .execute();
  return rows.map(tagFromRow);
}

/** Tags the response with the environment's tag of that name, made if need be. */
export async function tagResponse(
  executor: Executor,
  environmentId: string,
  responseId: string,
  name: string,
): Promise<TagRecord> {
  return inTransaction(executor, async (trx) => {
    const at = now();
    await trx.db
      .insertInto('survey_tags')
      .values({ id: cuid(), environment_id: environmentId, name, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['environment_id', 'name']).doNothing())
      .execute();
    const tag = await trx.db
      .selectFrom('survey_tags')
      .selectAll()
      .where('environment_id', '=', environmentId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    await trx.db
      .insertInto('survey_response_tags')
      .values({ response_id: responseId, tag_id: tag.id })
      .onConflict((oc) => oc.columns(['response_id', 'tag_id']).doNothing())
      .execute();
    return tagFromRow(tag);
  });
}

export async function untagResponse(executor: Executor, responseId: string, tagId: string): Promise<void> {
  await executor.db
    .deleteFrom('survey_response_tags')
    .where('response_id', '=', responseId)
    .where('tag_id', '=', tagId)
    .execute();
}

/** The tags and notes of each of these responses, oldest note first. */
export async function annotations(
  executor: Executor,
  responseIds: readonly string[],
): Promise<Map<string, { tags: TagRecord[]; notes: NoteRecord[] }>> {
  const byResponse = new Map(responseIds.map((id) => [id, { tags: [] as TagRecord[], notes: [] as NoteRecord[] }]));
  if (responseIds.length === 0) return byResponse;
  const [tagRows, noteRows] = await Promise.all([
    executor.db
      .selectFrom('survey_response_tags')
      .innerJoin('survey_tags', 'survey_tags.id', 'survey_response_tags.tag_id')
      .selectAll('survey_tags')
      .select('survey_response_tags.response_id')
      .where('survey_response_tags.response_id', 'in', responseIds)
      .orderBy('survey_tags.name')
      .execute(),
    executor.db
      .selectFrom('survey_response_notes')
      .selectAll()
      .where('response_id', 'in', responseIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  for (const row of tagRows) byResponse.get(row.response_id)?.tags.push(tagFromRow(row));
  for (const row of noteRows) byResponse.get(row.response_id)?.notes.push(noteFromRow(row));
  return byResponse;
}

/** Whether any response of the survey has a tag or a note (an export of one that has none skips looking). */
export async function surveyHasAnnotations(executor: Executor, surveyId: string): Promise<boolean> {
  // From the tags' and notes' side (CROSS JOIN keeps SQLite to that order): tags and notes are few, and
  // walking the survey's responses to look each up took a second at a million of them.
  const [tag, note] = await Promise.all([
    sql`select 1 as found from survey_response_tags rt cross join survey_responses r
      where r.id = rt.response_id and r.survey_id = ${surveyId} limit 1`.execute(executor.db),
    sql`select 1 as found from survey_response_notes n cross join survey_responses r
      where r.id = n.response_id and r.survey_id = ${surveyId} limit 1`.execute(executor.db),
  ]);
  return tag.rows.length > 0 || note.rows.length > 0;
}

export async function addNote(
  executor: Executor,
  responseId: string,
  author: string,
  text: string,
): Promise<NoteRecord> {
  const at = now();
  const id = cuid();
  await executor.db
    .insertInto('survey_response_notes')
    .values({
      id,
      response_id: responseId,
      author,
      text,
      is_resolved: fromBool(executor.dialect, false),
      is_edited: fromBool(executor.dialect, false),
      created_at: at,
      updated_at: at,
    })
    .execute();
  return (await note(executor, id))!;
}

export async function note(executor: Executor, id: string): Promise<NoteRecord | undefined> {
  const row = await executor.db.selectFrom('survey_response_notes').selectAll().where('id', '=', id).executeTakeFirst();
  return row && noteFromRow(row);
}

/** Edits the text (the note is then marked edited) or resolves the note. */
export async function updateNote(
  executor: Executor,
  responseId: string,
  id: string,
  change: { text?: string; isResolved?: boolean },
): Promise<NoteRecord | undefined> {
  const { numUpdatedRows } = await executor.db
    .updateTable('survey_response_notes')
    .set({
      updated_at: now(),
      ...(change.text !== undefined ? { text: change.text, is_edited: fromBool(executor.dialect, true) } : {}),
      ...(change.isResolved !== undefined ? { is_resolved: fromBool(executor.dialect, change.isResolved) } : {}),
    })
    .where('id', '=', id)
    .where('response_id', '=', responseId)
    .executeTakeFirst();
  return numUpdatedRows > 0n ? note(executor, id) : undefined;
}

const tagFromRow = (row: {
  id: string;
  created_at: string;
  updated_at: string;
  name: string;
  environment_id: string;
}) => ({
  id: row.id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  name: row.name,
  environmentId: row.environment_id,
});

const noteFromRow = (row: {
  id: string;
  created_at: string;
  updated_at: string;
  response_id: string;
  author: string;
  text: string;
  is_resolved: number | boolean;
  is_edited: number | boolean;
}): NoteRecord => ({
  id: row.id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  responseId: row.response_id,
  user: { name: row.author },
  text: row.text,
  isResolved: toBool(row.is_resolved),
  isEdited: toBool(row.is_edited),
});
