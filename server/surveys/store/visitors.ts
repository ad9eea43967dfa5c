/** What an identified sync reads of a visitor, in one statement (the route is the widget's busiest read). */
import { sql } from 'kysely';
import type { Dialect } from '../../db/codec.js';
import { compiledOnce, type Executor } from '../../db/executor.js';
import type { DisplayRecord } from './displays.js';

/** Of a display, what deciding a visitor's surveys reads. */
export type VisitorDisplay = Pick<DisplayRecord, 'surveyId' | 'responseId' | 'createdAt'>;

export interface StoredVisitor {
  personId: string;
  attributes: Record<string, string>;
  /** Newest first. */
  displays: VisitorDisplay[];
}

/**
 * Each of a person's attributes as `[name, value]` and displays as `[surveyId, responseId, createdAt, id]`,
 * aggregated into a JSON array (as text) by a subquery on the person's row.
 */
const aggregated = {
  sqlite: (columns: string, table: string) =>
    sql.raw<string>(`(select json_group_array(json_array(${columns})) from ${table} where person_id = p.id)`),
  postgres: (columns: string, table: string) =>
    sql.raw<string>(
      `(select coalesce(json_agg(json_build_array(${columns})), '[]'::json)::text from ${table} where person_id = p.id)`,
    ),
};

const visitorRows = (dialect: Dialect) =>
  compiledOnce(
    (db, environmentId: string, userId: string) =>
      db
        .selectFrom('survey_people as p')
        .where('p.environment_id', '=', environmentId)
        .where('p.user_id', '=', userId)
        .select([
          'p.id as person_id',
          aggregated[dialect]('key, value', 'survey_attributes').as('attributes'),
          aggregated[dialect]('survey_id, response_id, created_at, id', 'survey_displays').as('displays'),
        ]),
    { oneRow: true },
  );
const visitorRow = { sqlite: visitorRows('sqlite'), postgres: visitorRows('postgres') };

/**
 * The person with this user id in the environment, their attributes and their displays, or undefined
 * when there is no such person. One statement giving one row: on SQLite, each statement, and each row
 * read through libSQL, costs more than the lookups themselves (docs/decisions.md, "The identified sync").
 */
export async function visitor(
  executor: Executor,
  environmentId: string,
  userId: string,
): Promise<StoredVisitor | undefined> {
  const [row] = await visitorRow[executor.dialect](executor, environmentId, userId);
  if (!row) return undefined;
  const attributes = JSON.parse(row.attributes) as [string, string][];
  const displays = (JSON.parse(row.displays) as [string, string | null, string, string][]).map(
    ([surveyId, responseId, createdAt, id]) => ({ surveyId, responseId, createdAt, id }),
  );
  attributes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  displays.sort((a, b) => compareDesc(a.createdAt, b.createdAt) || compareDesc(a.id, b.id));
  return {
    personId: row.person_id,
    attributes: Object.fromEntries(attributes),
    displays: displays.map(({ id: _id, ...display }) => display),
  };
}

const compareDesc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
