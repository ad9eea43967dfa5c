/**
 * Survey results read in the database: the summary and trends from responses grouped by answer pattern
 * (aggregates, never the responses themselves), answer samples, and the keyset-paged response list the
 * console, the management API and the CSV export read. Every read takes the same filter.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { ResponseFilter } from '../../../domain/surveys/response-filter.js';
import type { TtcSum } from '../../../domain/surveys/summary.js';
import type { TResponseData, TSurvey, TSurveyQuestion } from '../../../domain/surveys/types.js';
import { toBool } from '../../db/codec.js';
import { type Executor, readAside } from '../../db/executor.js';
import type { ResponseRow } from './responses.js';
import { answerKey, type DayGroup, DISMISSED, JsonSql } from './answer-sql.js';

export type { ResponseRow } from './responses.js';

/**
 * A filter's lower bound as stored timestamps compare against it: without its `Z`, so that the instant
 * itself is in (`...00.000Z` sorts after `...00.000000Z`, the same instant with microseconds). The upper
 * bound keeps its `Z`, which sorts after every digit: `...59.999Z` takes in all of its millisecond.
 */
export const lowerBound = (min: string) => (min.endsWith('Z') ? min.slice(0, -1) : min);

/** The responses of a survey, or of an environment (for the management API). */
export type ResponseScope = { surveyId: string } | { environmentId: string };

/** The scope and the filter as a WHERE condition on `r` (see JsonSql.from). */
function filterCondition(json: JsonSql, scope: ResponseScope, filter: ResponseFilter): RawBuilder<SqlBool> {
  const conditions: RawBuilder<SqlBool>[] = [
    'surveyId' in scope ? sql`r.survey_id = ${scope.surveyId}` : sql`r.environment_id = ${scope.environmentId}`,
  ];
  if (filter.finished !== undefined) {
    conditions.push(
      json.dialect === 'postgres' ? sql`r.finished = ${filter.finished}` : sql`r.finished = ${filter.finished ? 1 : 0}`,
    );
  }
  if (filter.createdAt?.min) conditions.push(sql`r.created_at >= ${lowerBound(filter.createdAt.min)}`);
  if (filter.createdAt?.max) conditions.push(sql`r.created_at <= ${filter.createdAt.max}`);
  if (filter.flagValues) conditions.push(sql`r.flag_variant in (${sql.join(filter.flagValues)})`);
  for (const [key, { op, value }] of Object.entries(filter.personAttributes ?? {})) {
    const attribute = json.text(json.attributes, key);
    conditions.push(
      op === 'equals'
        ? sql`${attribute} = ${value}`
        : json.dialect === 'postgres'
          ? sql`${attribute} is distinct from ${value}`
          : sql`${attribute} is not ${value}`,
    );
  }
  const tagged = (names: readonly string[]): RawBuilder<SqlBool> =>
    sql`exists (select 1 from survey_response_tags rt join survey_tags t on t.id = rt.tag_id where rt.response_id = r.id and t.name in (${sql.join(names)}))`;
  for (const name of filter.tags?.applied ?? []) conditions.push(tagged([name]));
  if (filter.tags?.notApplied?.length) conditions.push(sql`not ${tagged(filter.tags.notApplied)}`);
  for (const [id, { op, value }] of Object.entries(filter.data ?? {})) {
    const number = json.number(json.data, id);
    const text = json.text(json.data, id);
    const list = Array.isArray(value) ? value : [String(value)];
    const compared = typeof value === 'number' ? number : text;
    const condition: Record<typeof op, () => RawBuilder<SqlBool>> = {
      submitted: () => json.submitted(id),
      skipped: () => sql`not ${json.submitted(id)}`,
      equals: () => sql`${compared} = ${value}`,
      notEquals: () => sql`(${compared} is null or ${compared} <> ${value})`,
      lessThan: () => sql`${number} < ${value}`,
      lessEqual: () => sql`${number} <= ${value}`,
      greaterThan: () => sql`${number} > ${value}`,
      greaterEqual: () => sql`${number} >= ${value}`,
      includesAll: () => json.contains(json.data, id, list, true),
      includesOne: () => json.contains(json.data, id, list, false),
      clicked: () => sql`${text} = 'clicked'`,
      accepted: () => sql`${text} = 'accepted'`,
      booked: () => sql`${text} = 'booked'`,
      uploaded: () => sql`(${json.submitted(id)} and coalesce(${text}, '') <> 'skipped')`,
      notUploaded: () => sql`not (${json.submitted(id)} and coalesce(${text}, '') <> 'skipped')`,
    };
    conditions.push(condition[op]());
  }
  return sql.join(conditions, sql` and `) as RawBuilder<SqlBool>;
}

export interface GroupOptions {
  /** The questions whose answers key the groups (all by default). */
  questions?: readonly TSurveyQuestion[];
  /** Also group by UTC day (`day` on each group). */
  byDay?: boolean;
  /** Sum each question's times too (the drop-off's average time), not only `_total`. */
  timed?: boolean;
}

/** The survey's filtered responses grouped by finished, answer pattern (and day): one scan, small results. */
export async function responseGroups(
  executor: Executor,
  survey: TSurvey,
  filter: ResponseFilter,
  options: GroupOptions = {},
): Promise<DayGroup[]> {
  const json = new JsonSql(executor.dialect);
  const questions = options.questions ?? survey.questions;
  const timed = options.timed ? survey.questions : [];
  // Each response's keys and times are worked out once in a subquery (kept apart on PostgreSQL by
  // OFFSET 0), and only then grouped: grouping by the expressions themselves had PostgreSQL work them out
  // again for its sort and for its aggregate.
  const keys = [
    sql`r.finished`.as('finished'),
    ...(options.byDay ? [sql`substr(r.created_at, 1, 10)`.as('day')] : []),
    ...questions.map((question, i) => answerKey(json, question).as(`k${i}`)),
  ];
  const timedIds = ['_total', ...timed.map((q) => q.id)];
  const times = timedIds.map((id, i) => json.number(json.ttc, id).as(`tm${i}`));
  const keyNames = ['finished', ...(options.byDay ? ['day'] : []), ...questions.map((_, i) => `k${i}`)];
  const ttcColumns = timedIds.flatMap((_, i) => {
    const time = sql.ref(`x.tm${i}`);
    return [
      sql`sum(case when ${time} <> 0 then ${time} else 0 end)`.as(`ts${i}`),
      sql`sum(case when ${time} <> 0 then 1 else 0 end)`.as(`tc${i}`),
    ];
  });
  const where = filterCondition(json, { surveyId: survey.id }, filter);
  const result = sql<Record<string, unknown>>`
    select ${sql.join(keyNames.map((name) => sql.ref(`x.${name}`)))}, count(*) as n, ${sql.join(ttcColumns)}
    from (
      select ${sql.join([...keys, ...times])} from ${json.from()} where ${where}
      ${executor.dialect === 'postgres' ? sql`offset 0` : sql``}
    ) x
    group by ${sql.join(keyNames.map((_, i) => sql.lit(i + 1)))}`.compile(executor.db);
  return (await readAside(executor, result)).map((row) => {
    const data: TResponseData = {};
    const dismissed: string[] = [];
    questions.forEach((question, i) => {
      const key = row[`k${i}`] as string | null;
      if (key === DISMISSED) dismissed.push(question.id);
      else if (key !== null) data[question.id] = JSON.parse(key);
    });
    const ttc: Record<string, TtcSum> = {};
    ['_total', ...timed.map((q) => q.id)].forEach((id, i) => {
      ttc[id] = { sum: Number(row[`ts${i}`] ?? 0), count: Number(row[`tc${i}`] ?? 0) };
    });
    return {
      count: Number(row.n),
      finished: toBool(row.finished as number | boolean),
      data,
      dismissed,
      ttc,
      ...(options.byDay ? { day: row.day as string } : {}),
    };
  });
}

/** Displays of the survey in the filter's date range and flag values (the other conditions are the responses'). */
export async function displayCount(executor: Executor, surveyId: string, filter: ResponseFilter): Promise<number> {
  const query = executor.db
    .selectFrom('survey_displays')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('survey_id', '=', surveyId)
    .$if(filter.createdAt?.min !== undefined, (q) => q.where('created_at', '>=', lowerBound(filter.createdAt!.min!)))
    .$if(filter.createdAt?.max !== undefined, (q) => q.where('created_at', '<=', filter.createdAt!.max!))
    .$if(filter.flagValues !== undefined, (q) => q.where('flag_variant', 'in', filter.flagValues!))
    .compile();
  const [row] = await readAside(executor, query);
  return Number(row.n);
}

export interface AnswerSample {
  responseId: string;
  value: unknown;
  updatedAt: string;
  person: { id: string; userId: string } | null;
}

/**
 * The newest answers to a question: its non-empty ones, or (`otherThan`) those that are none of these
 * choices (the "other" texts of a choice question).
 */
export async function answerSamples(
  executor: Executor,
  surveyId: string,
  filter: ResponseFilter,
  questionId: string,
  limit: number,
  otherThan?: readonly string[],
): Promise<AnswerSample[]> {
  const json = new JsonSql(executor.dialect);
  const answered = otherThan ? json.hasOther(questionId, otherThan) : json.submitted(questionId);
  const query = sql<{
    id: string;
    value: string;
    updated_at: string;
    person_id: string | null;
    user_id: string | null;
  }>`
    select r.id, ${json.json(json.data, questionId)} as value, r.updated_at, r.person_id, p.user_id
    from ${json.from()} left join survey_people p on p.id = r.person_id
    where ${filterCondition(json, { surveyId }, filter)} and ${answered}
    order by r.created_at desc, r.id desc limit ${limit}`.compile(executor.db);
  return (await readAside(executor, query)).map((row) => ({
    responseId: row.id,
    value: JSON.parse(row.value),
    updatedAt: row.updated_at,
    person: row.person_id && row.user_id ? { id: row.person_id, userId: row.user_id } : null,
  }));
}

/** Where a page starts: after the response with this creation time and id (newest first). */
export interface Cursor {
  createdAt: string;
  id: string;
}

/**
 * The filter's condition and a page's keyset: the rows after the cursor, newest first. The cursor's
 * time is also an upper bound of its own, so that the database seeks to the page instead of walking
 * the filter's range from its top on every page (a row-value comparison is a filter, not a bound of an
 * index range). SQLite seeks on one upper bound of a column, so there the filter's is dropped when the
 * cursor's is below it (SQLite's BINARY order is JavaScript's); PostgreSQL takes the tighter of both.
 */
function keyset(
  json: JsonSql,
  scope: ResponseScope,
  filter: ResponseFilter,
  cursor: Cursor | undefined,
): { where: RawBuilder<SqlBool>; after: RawBuilder<unknown> } {
  if (!cursor) return { where: filterCondition(json, scope, filter), after: sql`` };
  const max = filter.createdAt?.max;
  const bounded =
    json.dialect === 'sqlite' && max !== undefined && cursor.createdAt < max
      ? { ...filter, createdAt: { ...filter.createdAt, max: undefined } }
      : filter;
  return {
    where: filterCondition(json, scope, bounded),
    after: sql`and r.created_at <= ${cursor.createdAt} and (r.created_at, r.id) < (${cursor.createdAt}, ${cursor.id})`,
  };
}

/**
 * A page of the survey's filtered responses, newest first, after the cursor (keyset) or after skipping
 * `skip` rows (the management API's offset paging).
 */
export async function responsePage(
  executor: Executor,
  scope: ResponseScope,
  filter: ResponseFilter,
  page: { limit: number; after?: Cursor; skip?: number },
): Promise<ResponseRow[]> {
  const json = new JsonSql(executor.dialect);
  const { where, after } = keyset(json, scope, filter, page.after);
  const result = await sql<ResponseRow>`
    select r.id, r.created_at, r.updated_at, r.survey_id, r.environment_id, r.person_id, p.user_id, r.finished,
      r.data, r.ttc, r.meta, r.person_attributes
    from ${json.from(Object.keys(filter.data ?? {}).length > 0)} left join survey_people p on p.id = r.person_id
    where ${where} ${after}
    order by r.created_at desc, r.id desc limit ${page.limit} offset ${page.skip ?? 0}`.execute(executor.db);
  return result.rows;
}

/** A response as the export reads it: its JSON columns parsed. */
export interface ExportRow {
  id: string;
  createdAt: string;
  finished: boolean;
  userId: string | null;
  data: Record<string, unknown>;
  meta: { source?: unknown; url?: unknown; userAgent?: { browser?: unknown; os?: unknown; device?: unknown } };
  attributes: Record<string, string> | null;
  /** What the survey's linked flag gave the visitor when it was shown, if it links one. */
  flagVariant: string | null;
}

/** Separators of the export's pages: JSON text never holds them raw (JSON escapes control characters). */
const FIELD = '\x1f';
const ROW = '\x1e';

/**
 * Parses JSON text, keeping the values of texts seen lately: a page's `meta` and attributes repeat
 * (one page, one user agent, a handful of plans), and parsing each copy again was a large part of
 * the export's time. The values are shared between rows, so they must not be changed.
 */
function repeatedJson(limit = 64): (text: string) => unknown {
  const seen = new Map<string, unknown>();
  return (text) => {
    let value = seen.get(text);
    if (value === undefined) {
      value = JSON.parse(text);
      if (seen.size >= limit) seen.delete(seen.keys().next().value!);
      seen.set(text, value);
    }
    return value;
  };
}

/**
 * A page of the survey's filtered responses for the export, newest first, after the cursor. The page
 * comes back as one text built in the database, rows and fields apart by control characters, so the
 * driver hands over one value instead of thousands of rows of a dozen columns. Ids and timestamps are
 * the server's own (no control characters); the JSON columns hold JSON text (the store writes them with
 * JSON.stringify) and go in as they are; user ids and flag values, which callers choose, are quoted as
 * JSON. Building one JSON array instead took twice as long, in quoting in the database and in creating
 * every row's objects in JavaScript (bench/survey-results).
 */
export async function exportPage(
  executor: Executor,
  surveyId: string,
  filter: ResponseFilter,
  page: { limit: number; after?: Cursor },
): Promise<ExportRow[]> {
  const json = new JsonSql(executor.dialect);
  const postgres = executor.dialect === 'postgres';
  const { where, after } = keyset(json, { surveyId }, filter, page.after);
  const quote = (column: string) =>
    postgres ? sql`to_json(${sql.ref(column)})::text` : sql`json_quote(${sql.ref(column)})`;
  // One concat_ws, not a chain of ||, each of which copies the row's text so far (half of PostgreSQL's
  // time on a page). It leaves out NULLs, so none may be NULL.
  const item = sql`concat_ws(cast(${FIELD} as text), e.id, e.created_at, case when e.finished then 'y' else 'n' end, coalesce(${quote('e.user_id')}, ''), e.data, e.meta, coalesce(e.person_attributes, ''), coalesce(${quote('e.flag_variant')}, ''))`;
  // SQLite concatenates in the subquery's order (sorting again inside the aggregate took half of its
  // time; checked below all the same, its BINARY order being JavaScript's); PostgreSQL sorts as its
  // ORDER BY does (its collation may not be JavaScript's order).
  const aggregate = postgres
    ? sql`string_agg(${item}, ${ROW} order by e.created_at desc, e.id desc)`
    : sql`group_concat(${item}, ${ROW})`;
  const query = sql<{ page: string | null }>`
    select ${aggregate} as page from (
      select r.id, r.created_at, r.finished, p.user_id, r.data, r.meta, r.person_attributes, r.flag_variant
      from ${json.from(Object.keys(filter.data ?? {}).length > 0)} left join survey_people p on p.id = r.person_id
      where ${where} ${after}
      order by r.created_at desc, r.id desc limit ${page.limit}
    ) e`.compile(executor.db);
  const text = (await readAside(executor, query))[0]?.page;
  if (!text) return [];
  const repeated = repeatedJson();
  const exported = text.split(ROW).map((line): ExportRow => {
    const [id, createdAt, finished, userId, data, meta, attributes, flagVariant] = line.split(FIELD);
    return {
      id,
      createdAt,
      finished: finished === 'y',
      userId: userId ? (JSON.parse(userId) as string) : null,
      data: JSON.parse(data) as ExportRow['data'],
      meta: repeated(meta) as ExportRow['meta'],
      attributes: attributes ? (repeated(attributes) as ExportRow['attributes']) : null,
      flagVariant: flagVariant ? (JSON.parse(flagVariant) as string) : null,
    };
  });
  const newestFirst = (a: ExportRow, b: ExportRow) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;
  for (let i = 1; !postgres && i < exported.length; i++) {
    if (newestFirst(exported[i - 1], exported[i]) > 0) return exported.sort(newestFirst);
  }
  return exported;
}

/** The attribute keys of the environment's people: the export's attribute columns. */
export async function attributeKeys(executor: Executor, environmentId: string): Promise<string[]> {
  const rows = await executor.db
    .selectFrom('survey_attributes')
    .innerJoin('survey_people', 'survey_people.id', 'survey_attributes.person_id')
    .select('survey_attributes.key')
    .distinct()
    .where('survey_people.environment_id', '=', environmentId)
    .orderBy('survey_attributes.key')
    .execute();
  return rows.map((row) => row.key);
}
