/**
 * Survey result rollups (#31): what the summary and the trends read instead of the responses when the
 * filter is at most finished and a date range. Per survey, UTC day, finished and answer pattern (the
 * summary's group key: each question's answer as store/results.ts `answerKey` makes it, the same SQL the
 * scan groups by, so rollups and scans agree by construction) the number of responses; per day, finished
 * and question the sums of the non-zero times to complete; per day the displays.
 *
 * Every response write applies its delta in its own transaction: the response's old contribution is
 * taken off before an update or a delete and the new one added after, by the same SQL over the stored
 * row. A pattern depends on the survey's definition (question ids, types, choices, hidden fields): its
 * fingerprint is kept beside the rollups; saving a survey whose fingerprint changed rebuilds them in the
 * save's transaction. On PostgreSQL the writers hold the fingerprint row FOR SHARE while applying their
 * delta and the rebuild holds it FOR UPDATE, so no delta lands in a half-rebuilt rollup; SQLite writes
 * one transaction at a time.
 */
import { type RawBuilder, sql } from 'kysely';
import type { TtcSum } from '../../../domain/surveys/summary.js';
import type { TResponseData, TSurvey, TSurveyQuestion } from '../../../domain/surveys/types.js';
import { fromBool, toBool } from '../../db/codec.js';
import type { Dialect } from '../../db/codec.js';
import { type Executor, inTransaction } from '../../db/executor.js';
import { answerKey, type DayGroup, DISMISSED, JsonSql } from './answer-sql.js';

/** What of a survey decides its patterns. */
export type RollupSurvey = Pick<TSurvey, 'id' | 'questions' | 'hiddenFields'>;

/** Between the questions' keys in a pattern: JSON text never holds a raw control character. */
const SEPARATOR = '\u001f';

/** Hidden fields group and count as open-text answers do. */
const asQuestion = (id: string) => ({ id, type: 'openText', headline: id, required: false }) as TSurveyQuestion;

/** The questions a pattern keys, in order: the survey's, then its hidden fields (when enabled). */
export function patternQuestions(survey: Pick<TSurvey, 'questions' | 'hiddenFields'>): TSurveyQuestion[] {
  const hidden = survey.hiddenFields?.enabled ? (survey.hiddenFields.fieldIds ?? []) : [];
  return [...survey.questions, ...hidden.map(asQuestion)];
}

/** The part of the survey's definition its patterns depend on. */
export function fingerprint(survey: Pick<TSurvey, 'questions' | 'hiddenFields'>): string {
  return JSON.stringify(
    patternQuestions(survey).map((question) => [
      question.id,
      question.type,
      ...('choices' in question
        ? (question.choices as readonly { id: string; label?: string }[]).map((choice) =>
            question.type === 'pictureSelection' ? choice.id : choice.label,
          )
        : []),
    ]),
  );
}

function patternSql(json: JsonSql, questions: readonly TSurveyQuestion[]): RawBuilder<string> {
  if (questions.length === 0) return sql`''`;
  return sql.join(
    questions.map((question) => sql`coalesce(${answerKey(json, question)}, '')`),
    sql` || ${SEPARATOR} || `,
  ) as RawBuilder<string>;
}

/** A pattern back as a group's answers and dismissed questions (as store/results.ts `responseGroups` reads its keys). */
export function decodePattern(
  pattern: string,
  questions: readonly TSurveyQuestion[],
): { data: TResponseData; dismissed: string[] } {
  const data: TResponseData = {};
  const dismissed: string[] = [];
  const keys = pattern.split(SEPARATOR);
  questions.forEach((question, i) => {
    const key = keys[i];
    if (key === undefined || key === '') return;
    if (key === DISMISSED) dismissed.push(question.id);
    else data[question.id] = JSON.parse(key);
  });
  return { data, dismissed };
}

/** Day of a `created_at`: its UTC date. */
const DAY = sql`substr(r.created_at, 1, 10)`;

/** Rebuilds the survey's rollups from its stored responses and displays, and records its fingerprint. */
export async function rebuildRollups({ db, dialect }: Executor, survey: RollupSurvey): Promise<void> {
  const json = new JsonSql(dialect);
  const questions = patternQuestions(survey);
  const timed = ['_total', ...survey.questions.map((question) => question.id)];
  for (const table of ['survey_result_groups', 'survey_result_times', 'survey_result_displays'] as const) {
    await db.deleteFrom(table).where('survey_id', '=', survey.id).execute();
  }
  const times = timed.flatMap((id, i) => {
    const time = json.number(json.ttc, id);
    return [
      sql`sum(case when ${time} <> 0 then ${time} else 0 end)`.as(`ts${i}`),
      sql`sum(case when ${time} <> 0 then 1 else 0 end)`.as(`tc${i}`),
    ];
  });
  const { rows } = await sql<Record<string, unknown>>`
    select ${DAY} as day, r.finished as finished, ${patternSql(json, questions)} as pattern, count(*) as n, ${sql.join(times)}
    from ${json.from()} where r.survey_id = ${survey.id} group by 1, 2, 3`.execute(db);
  const byDay = new Map<string, { day: string; finished: number | boolean; sums: Map<string, TtcSum> }>();
  for (const row of rows) {
    const day = row.day as string;
    const finished = row.finished as number | boolean;
    const key = `${day} ${toBool(finished)}`;
    const entry = byDay.get(key) ?? { day, finished, sums: new Map<string, TtcSum>() };
    byDay.set(key, entry);
    const { sums } = entry;
    timed.forEach((id, i) => {
      const sum = sums.get(id) ?? { sum: 0, count: 0 };
      sum.sum += Number(row[`ts${i}`] ?? 0);
      sum.count += Number(row[`tc${i}`] ?? 0);
      sums.set(id, sum);
    });
  }
  const groupRows = rows.map((row) => ({
    survey_id: survey.id,
    day: row.day as string,
    finished: row.finished as number | boolean,
    pattern: row.pattern as string,
    responses: Number(row.n),
  }));
  const timeRows = [...byDay.values()].flatMap(({ day, finished, sums }) =>
    [...sums]
      .filter(([, sum]) => sum.count !== 0)
      .map(([id, sum]) => ({
        survey_id: survey.id,
        day,
        finished,
        question_id: id,
        total: sum.sum,
        answers: sum.count,
      })),
  );
  for (let i = 0; i < groupRows.length; i += 500) {
    await db
      .insertInto('survey_result_groups')
      .values(groupRows.slice(i, i + 500))
      .execute();
  }
  for (let i = 0; i < timeRows.length; i += 500) {
    await db
      .insertInto('survey_result_times')
      .values(timeRows.slice(i, i + 500))
      .execute();
  }
  await sql`insert into survey_result_displays (survey_id, day, displays)
    select r.survey_id, ${DAY}, count(*) from survey_displays r where r.survey_id = ${survey.id} group by 1, 2`.execute(
    db,
  );
  const print = fingerprint(survey);
  await db
    .insertInto('survey_result_rollups')
    .values({ survey_id: survey.id, fingerprint: print })
    .onConflict((oc) => oc.column('survey_id').doUpdateSet({ fingerprint: print }))
    .execute();
}

/**
 * In a survey save's transaction, after the survey row is written: rebuilds the rollups when the
 * definition's fingerprint changed (or there are none yet), holding the writers off on PostgreSQL.
 */
export async function surveySaved(executor: Executor, survey: RollupSurvey): Promise<void> {
  const state = await executor.db
    .selectFrom('survey_result_rollups')
    .select('fingerprint')
    .where('survey_id', '=', survey.id)
    .$if(executor.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (state?.fingerprint !== fingerprint(survey)) await rebuildRollups(executor, survey);
}

/**
 * Makes the rollups of every survey that has none: those stored before the rollups existed (migration
 * 0013 only creates their tables, as a migration runs no application code). Each survey in its own
 * transaction, its row held FOR UPDATE on PostgreSQL, so instances starting together or a save of the
 * same survey wait for each other; a survey whose rollups another made meanwhile is left as it is.
 */
export async function fillMissingRollups(executor: Executor): Promise<void> {
  const missing = await executor.db
    .selectFrom('surveys')
    .select('id')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('survey_result_rollups')
            .select('survey_id')
            .whereRef('survey_result_rollups.survey_id', '=', 'surveys.id'),
        ),
      ),
    )
    .execute();
  for (const { id } of missing) {
    await inTransaction(executor, async (trx) => {
      const row = await trx.db
        .selectFrom('surveys')
        .select('document')
        .where('id', '=', id)
        .$if(trx.dialect === 'postgres', (query) => query.forUpdate())
        .executeTakeFirst();
      if (row) await surveySaved(trx, { id, ...JSON.parse(row.document) });
    });
  }
}

/** What one response adds to the rollups. */
export interface Contribution {
  day: string;
  finished: boolean;
  pattern: string;
  /** Non-zero times per question id (and `_total`). */
  times: Map<string, number>;
}

/**
 * The rollups' side of a response write, for one survey, inside the write's transaction: undefined when
 * the survey has no rollups for its current definition (the reads then scan). Read the response's
 * `contribution` before changing or deleting it and after creating or changing it, then `apply` the
 * difference. Rows change in one order (groups, then times, each sorted by key), so concurrent writers
 * on PostgreSQL wait for each other instead of deadlocking, and a write that changes nothing the
 * rollups count (most updates' times aside) touches no row of them.
 */
export async function responseRollups({ db, dialect }: Executor, surveyId: string) {
  const state = await db
    .selectFrom('survey_result_rollups')
    .select('fingerprint')
    .where('survey_id', '=', surveyId)
    .$if(dialect === 'postgres', (query) => query.forShare())
    .executeTakeFirst();
  if (!state) return undefined;
  const row = await db.selectFrom('surveys').select('document').where('id', '=', surveyId).executeTakeFirst();
  if (!row) return undefined;
  const survey: RollupSurvey = { id: surveyId, ...JSON.parse(row.document) };
  if (fingerprint(survey) !== state.fingerprint) return undefined;
  const json = new JsonSql(dialect);
  const pattern = patternSql(json, patternQuestions(survey));
  const timed = ['_total', ...survey.questions.map((question) => question.id)];
  const times = timed.map((id, i) => {
    const time = json.number(json.ttc, id);
    return sql`(case when ${time} <> 0 then ${time} else 0 end)`.as(`t${i}`);
  });
  return {
    async contribution(responseId: string): Promise<Contribution | undefined> {
      const { rows } = await sql<Record<string, unknown>>`
        select ${DAY} as day, r.finished as finished, ${pattern} as pattern, ${sql.join(times)}
        from ${json.from()} where r.id = ${responseId}`.execute(db);
      const found = rows[0];
      if (!found) return undefined;
      const sums = new Map<string, number>();
      timed.forEach((id, i) => {
        const value = Number(found[`t${i}`] ?? 0);
        if (value !== 0) sums.set(id, value);
      });
      return {
        day: found.day as string,
        finished: toBool(found.finished as number | boolean),
        pattern: found.pattern as string,
        times: sums,
      };
    },

    async apply(before: Contribution | undefined, after: Contribution | undefined): Promise<void> {
      const groups = new Map<string, { day: string; finished: boolean; pattern: string; delta: number }>();
      const spans = new Map<string, { day: string; finished: boolean; id: string; total: number; answers: number }>();
      for (const [contribution, sign] of [
        [before, -1],
        [after, 1],
      ] as const) {
        if (!contribution) continue;
        const { day, finished, pattern: key } = contribution;
        const groupKey = `${day}\u0000${finished ? 1 : 0}\u0000${key}`;
        const group = groups.get(groupKey) ?? { day, finished, pattern: key, delta: 0 };
        group.delta += sign;
        groups.set(groupKey, group);
        for (const [id, time] of contribution.times) {
          const spanKey = `${day}\u0000${finished ? 1 : 0}\u0000${id}`;
          const span = spans.get(spanKey) ?? { day, finished, id, total: 0, answers: 0 };
          span.total += sign * time;
          span.answers += sign;
          spans.set(spanKey, span);
        }
      }
      const byKey = <T>(map: Map<string, T>) =>
        [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
      for (const group of byKey(groups)) {
        if (group.delta === 0) continue;
        await db
          .insertInto('survey_result_groups')
          .values({
            survey_id: surveyId,
            day: group.day,
            finished: fromBool(dialect, group.finished),
            pattern: group.pattern,
            responses: group.delta,
          })
          .onConflict((oc) =>
            oc.columns(['survey_id', 'day', 'finished', 'pattern']).doUpdateSet((eb) => ({
              responses: eb('survey_result_groups.responses', '+', eb.ref('excluded.responses')),
            })),
          )
          .execute();
      }
      for (const span of byKey(spans)) {
        if (span.answers === 0 && span.total === 0) continue;
        await db
          .insertInto('survey_result_times')
          .values({
            survey_id: surveyId,
            day: span.day,
            finished: fromBool(dialect, span.finished),
            question_id: span.id,
            total: span.total,
            answers: span.answers,
          })
          .onConflict((oc) =>
            oc.columns(['survey_id', 'day', 'finished', 'question_id']).doUpdateSet((eb) => ({
              total: eb('survey_result_times.total', '+', eb.ref('excluded.total')),
              answers: eb('survey_result_times.answers', '+', eb.ref('excluded.answers')),
            })),
          )
          .execute();
      }
    },
  };
}

/** A display's day counted, in the display write's transaction. */
export async function displayAdded({ db }: Executor, surveyId: string, createdAt: string): Promise<void> {
  await db
    .insertInto('survey_result_displays')
    .values({ survey_id: surveyId, day: createdAt.slice(0, 10), displays: 1 })
    .onConflict((oc) =>
      oc
        .columns(['survey_id', 'day'])
        .doUpdateSet((eb) => ({ displays: eb('survey_result_displays.displays', '+', 1) })),
    )
    .execute();
}

/** Whole UTC days, both included; either end open. */
export interface DayRange {
  first?: string;
  last?: string;
}

/** Whether the survey's rollups were made for its current definition. */
export async function rollupsCurrent({ db }: Executor, survey: RollupSurvey): Promise<boolean> {
  const state = await db
    .selectFrom('survey_result_rollups')
    .select('fingerprint')
    .where('survey_id', '=', survey.id)
    .executeTakeFirst();
  return state?.fingerprint === fingerprint(survey);
}

/**
 * The survey's response groups over the days from the rollups (merged over the days, or per day with
 * `byDay`), finished ones only or unfinished ones only when told.
 */
export async function rolledUpGroups(
  { db, dialect }: Executor,
  survey: RollupSurvey,
  days: DayRange,
  options: { finished?: boolean; byDay?: boolean },
): Promise<DayGroup[]> {
  const questions = patternQuestions(survey);
  const { rows } = await sql<{ day?: string; finished: number | boolean; pattern: string; n: number | string }>`
    select ${options.byDay ? sql`day,` : sql``} finished, pattern, sum(responses) as n from survey_result_groups
    where survey_id = ${survey.id} ${dayRange(days)} ${finishedIs(dialect, options.finished)}
    group by ${options.byDay ? sql`day,` : sql``} finished, pattern having sum(responses) <> 0`.execute(db);
  return rows.map((row) => ({
    count: Number(row.n),
    finished: toBool(row.finished),
    ...decodePattern(row.pattern, questions),
    ttc: {},
    ...(options.byDay ? { day: row.day } : {}),
  }));
}

/** The sums of the times to complete over the days (of finished or unfinished responses only when told), per question id and `_total`. */
export async function rolledUpTimes(
  { db, dialect }: Executor,
  surveyId: string,
  days: DayRange,
  options: { finished?: boolean },
): Promise<Record<string, TtcSum>> {
  const { rows } = await sql<{ question_id: string; total: number | string; answers: number | string }>`
    select question_id, sum(total) as total, sum(answers) as answers from survey_result_times
    where survey_id = ${surveyId} ${dayRange(days)} ${finishedIs(dialect, options.finished)} group by question_id`.execute(
    db,
  );
  return Object.fromEntries(
    rows.map((row) => [row.question_id, { sum: Number(row.total), count: Number(row.answers) }]),
  );
}

export async function rolledUpDisplays({ db }: Executor, surveyId: string, days: DayRange): Promise<number> {
  const { rows } = await sql<{ n: number | string | null }>`
    select sum(displays) as n from survey_result_displays where survey_id = ${surveyId} ${dayRange(days)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

function finishedIs(dialect: Dialect, finished: boolean | undefined): RawBuilder<unknown> {
  return finished === undefined ? sql`` : sql`and finished = ${fromBool(dialect, finished)}`;
}

function dayRange(days: DayRange): RawBuilder<unknown> {
  return sql`${days.first ? sql`and day >= ${days.first}` : sql``} ${days.last ? sql`and day <= ${days.last}` : sql``}`;
}
