/** What an identified sync reads of a visitor, in one statement (the route is the widget's busiest read). */
import { sql } from 'kysely';
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

const ATTRIBUTE = 0;
const DISPLAY = 1;

const visitorRows = compiledOnce((db, environmentId: string, userId: string) =>
  db
    .selectFrom('survey_people as p')
    .leftJoin('survey_attributes as a', 'a.person_id', 'p.id')
    .where('p.environment_id', '=', environmentId)
    .where('p.user_id', '=', userId)
    .select([
      'p.id as person_id',
      sql<number>`${sql.lit(ATTRIBUTE)}`.as('kind'),
      'a.key as name',
      'a.value as value',
      sql<string | null>`null`.as('created_at'),
      sql<string | null>`null`.as('display_id'),
    ])
    .unionAll(
      db
        .selectFrom('survey_displays as d')
        .innerJoin('survey_people as p', 'p.id', 'd.person_id')
        .where('p.environment_id', '=', environmentId)
        .where('p.user_id', '=', userId)
        .select([
          'p.id as person_id',
          sql<number>`${sql.lit(DISPLAY)}`.as('kind'),
          'd.survey_id as name',
          'd.response_id as value',
          'd.created_at as created_at',
          'd.id as display_id',
        ]),
    ),
);

/**
 * The person with this user id in the environment, their attributes and their displays, or undefined
 * when there is no such person. One statement instead of three: on SQLite, preparing and stepping each
 * statement costs more than the reads themselves (docs/decisions.md, "The identified sync").
 */
export async function visitor(
  executor: Executor,
  environmentId: string,
  userId: string,
): Promise<StoredVisitor | undefined> {
  const rows = await visitorRows(executor, environmentId, userId);
  if (rows.length === 0) return undefined;
  const attributes: [string, string][] = [];
  const displays: (VisitorDisplay & { id: string })[] = [];
  for (const row of rows) {
    if (Number(row.kind) === DISPLAY)
      displays.push({ surveyId: row.name!, responseId: row.value, createdAt: row.created_at!, id: row.display_id! });
    else if (row.name !== null) attributes.push([row.name, row.value!]);
  }
  attributes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  displays.sort((a, b) => compareDesc(a.createdAt, b.createdAt) || compareDesc(a.id, b.id));
  return {
    personId: rows[0].person_id,
    attributes: Object.fromEntries(attributes),
    displays: displays.map(({ id: _id, ...display }) => display),
  };
}

const compareDesc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
