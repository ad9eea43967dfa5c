/**
 * Feedback guards' rows and their arms' running sums. The display and response writes call `guardDisplayAdded`
 * and `guardAnswersMoved` in their own transaction, so an arm's sums always match the stored displays and
 * answers, and the arms' writes bump the guard's `revision` (a trigger, migration 0016); the monitor (guards.ts)
 * assesses the guards whose revision moved.
 */
import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Measure } from '../../domain/guards/assess.js';
import { armOfAssignment } from '../../domain/guards/guard.js';
import type { Moments } from '../../domain/guards/statistics.js';
import type { FlagAssignment } from '../../domain/surveys/eligibility.js';
import { compiledOnce, type Executor, readAside, writeCompiledOnce } from '../db/executor.js';
import type { FlagGuardsTable } from '../db/schema.js';

export type GuardRow = Selectable<FlagGuardsTable>;

export interface ArmSums {
  displays: number;
  answers: Moments;
}

export const measureOfRow = (row: Pick<GuardRow, 'measure' | 'answer'>): Measure =>
  row.measure === 'share' ? { kind: 'share', choice: row.answer ?? '' } : { kind: row.measure as 'nps' | 'rating' };

export function guardsOfFlag({ db }: Executor, namespaceKey: string, flagKey: string): Promise<GuardRow[]> {
  return db
    .selectFrom('flag_guards')
    .selectAll()
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function guardRow({ db }: Executor, namespaceKey: string, flagKey: string, id: string) {
  return db
    .selectFrom('flag_guards')
    .selectAll()
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The guards whose arms changed since they were last assessed. */
export function guardsToAssess({ db }: Executor): Promise<GuardRow[]> {
  return db.selectFrom('flag_guards').selectAll().where(sql<boolean>`revision <> assessed_revision`).execute();
}

export async function armSums({ db }: Executor, guardId: string): Promise<Map<string, ArmSums>> {
  const rows = await db.selectFrom('flag_guard_arms').selectAll().where('guard_id', '=', guardId).execute();
  return new Map(
    rows.map((row) => [
      row.arm,
      {
        displays: Number(row.displays),
        answers: { n: Number(row.answers), sum: Number(row.total), sumOfSquares: Number(row.total_of_squares) },
      },
    ]),
  );
}

interface ArmDelta {
  guardId: string;
  arm: string;
  displays: number;
  answers: number;
  total: number;
  totalOfSquares: number;
}

/** Adds a delta to an arm, made if it was not: built once, run on every guarded display and answer. */
const addToArm = writeCompiledOnce(
  (db, guard_id: string, arm: string, displays: number, answers: number, total: number, total_of_squares: number) =>
    db
      .insertInto('flag_guard_arms')
      .values({ guard_id, arm, displays, answers, total, total_of_squares })
      .onConflict((conflict) =>
        conflict.columns(['guard_id', 'arm']).doUpdateSet((eb) => ({
          displays: eb('flag_guard_arms.displays', '+', eb.ref('excluded.displays')),
          answers: eb('flag_guard_arms.answers', '+', eb.ref('excluded.answers')),
          total: eb('flag_guard_arms.total', '+', eb.ref('excluded.total')),
          total_of_squares: eb('flag_guard_arms.total_of_squares', '+', eb.ref('excluded.total_of_squares')),
        })),
      ),
);

async function applyDeltas(executor: Executor, deltas: readonly ArmDelta[]): Promise<void> {
  for (const delta of deltas)
    await addToArm(
      executor,
      delta.guardId,
      delta.arm,
      delta.displays,
      delta.answers,
      delta.total,
      delta.totalOfSquares,
    );
}

type GuardOfSurvey = Pick<GuardRow, 'id' | 'flag_key' | 'question_id' | 'measure' | 'answer'>;

/** The guards reading the survey's answers for a flag, in the order of their ids: built once, run on every write. */
const guardsOfSurvey = compiledOnce((db, surveyId: string, flagKey: string) =>
  db
    .selectFrom('flag_guards')
    .select(['id', 'flag_key', 'question_id', 'measure', 'answer'])
    .where('survey_id', '=', surveyId)
    .where('flag_key', '=', flagKey)
    .orderBy('id'),
);

/** Counts a display of the survey in the arm its flag assignment names, for each guard reading the survey. */
export async function guardDisplayAdded(
  executor: Executor,
  surveyId: string,
  assignment: FlagAssignment | null,
): Promise<void> {
  if (!assignment) return;
  const guards = await guardsOfSurvey(executor, surveyId, assignment.flagKey);
  const arm = armOfAssignment(assignment.variant);
  await applyDeltas(
    executor,
    guards.map((guard) => ({ guardId: guard.id, arm, displays: 1, answers: 0, total: 0, totalOfSquares: 0 })),
  );
}

/**
 * Moves the arms of the guards reading the survey's answers from what a response held `before` to what it holds
 * `after` (a create has nothing before, a delete nothing after), both taken from the values the write has in hand
 * rather than read back. `assignment` is the response's flag assignment: without one nothing is written. One
 * statement finds the guards reading the survey for the flag, values the answers for each and adds the difference
 * to its arm (the arm's trigger bumps the guard's revision); a guard whose answer did not change is left as it is.
 */
export async function guardAnswersMoved(
  executor: Executor,
  surveyId: string,
  assignment: FlagAssignment | null,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): Promise<void> {
  if (!assignment) return;
  await moveAnswers[executor.dialect](
    executor,
    armOfAssignment(assignment.variant),
    surveyId,
    assignment.flagKey,
    before ? JSON.stringify(before) : null,
    after ? JSON.stringify(after) : null,
  );
}

/** The statement of guardAnswersMoved, per dialect: built once, run on every response write of a linked survey. */
const moveAnswers = Object.fromEntries(
  (['sqlite', 'postgres'] as const).map((dialect) => [
    dialect,
    writeCompiledOnce(
      (db, arm: string, surveyId: string, flagKey: string, before: string | null, after: string | null) => {
        const was = observationSql(dialect, sql`${before}`, guardColumns);
        const is = observationSql(dialect, sql`${after}`, guardColumns);
        const counted = (value: RawBuilder<unknown>) => sql`(case when ${value} is null then 0 else 1 end)`;
        const moved = dialect === 'postgres' ? sql`is_ is distinct from was` : sql`is_ is not was`;
        const statement = sql`insert into flag_guard_arms (guard_id, arm, displays, answers, total, total_of_squares)
          select id, ${arm}, 0, ${counted(sql`is_`)} - ${counted(sql`was`)}, coalesce(is_, 0) - coalesce(was, 0),
            coalesce(is_ * is_, 0) - coalesce(was * was, 0)
          from (select g.id as id, ${is} as is_, ${was} as was from flag_guards g
            where g.survey_id = ${surveyId} and g.flag_key = ${flagKey}) answers
          where ${moved}
          order by id
          on conflict (guard_id, arm) do update set
            answers = flag_guard_arms.answers + excluded.answers,
            total = flag_guard_arms.total + excluded.total,
            total_of_squares = flag_guard_arms.total_of_squares + excluded.total_of_squares`;
        return { compile: () => statement.compile(db) };
      },
    ),
  ]),
) as Record<
  Executor['dialect'],
  (executor: Executor, ...args: [string, string, string, string | null, string | null]) => Promise<unknown[]>
>;

/** A guard's question, measure and choice read, as SQL: its columns in a statement over flag_guards, or values. */
interface GuardSql {
  question: RawBuilder<string>;
  measure: RawBuilder<string>;
  answer: RawBuilder<string | null>;
}

const guardValues = (guard: Pick<GuardRow, 'question_id' | 'measure' | 'answer'>): GuardSql => ({
  question: sql`${guard.question_id}`,
  measure: sql`${guard.measure}`,
  answer: sql`${guard.answer ?? ''}`,
});

const guardColumns: GuardSql = {
  question: sql`g.question_id`,
  measure: sql`g.measure`,
  answer: sql`coalesce(g.answer, '')`,
};

/**
 * What an answer to the guard's question counts as, in SQL over the JSON text `json` (`survey_responses.data`, or a
 * response's data given as a value), as `observationOf` in domain/guards/assess.ts: NPS +100, 0 or -100; a rating
 * itself; for a choice, 1 when the answer (or the list of answers) names it, else 0. NULL when the answer does not
 * count, or `json` is NULL.
 */
function observationSql(dialect: Executor['dialect'], json: RawBuilder<string | null>, guard: GuardSql) {
  const { question, measure, answer } = guard;
  if (dialect === 'postgres') {
    const member = sql`(${json}::jsonb -> ${question})`;
    const type = sql`jsonb_typeof(${member})`;
    const value = sql`(${json}::jsonb ->> ${question})`;
    return sql<number | null>`case
      when ${measure} = 'share' then (case when ${type} = 'string' then (case when ${value} = ${answer} then 1 else 0 end)
        when ${type} = 'array' then (case when jsonb_exists(${member}, ${answer}) then 1 else 0 end) end)
      when ${type} = 'number' then (case when ${measure} = 'rating' then ${value}::float8
        when ${value}::float8 >= 9 then 100 when ${value}::float8 <= 6 then -100 else 0 end) end`;
  }
  // SQLite's JSON path of the top-level member.
  const path = sql`'$."' || replace(${question}, '"', '\\"') || '"'`;
  const member = sql`json_extract(${json}, ${path})`;
  const type = sql`json_type(${json}, ${path})`;
  return sql<number | null>`case
    when ${measure} = 'share' then (case when ${type} = 'text' then (case when ${member} = ${answer} then 1 else 0 end)
      when ${type} = 'array' then
        (case when exists (select 1 from json_each(${json}, ${path}) where value = ${answer}) then 1 else 0 end) end)
    when ${type} in ('integer', 'real') then (case when ${measure} = 'rating' then ${member}
      when ${member} >= 9 then 100 when ${member} <= 6 then -100 else 0 end) end`;
}

/**
 * Fills a guard's arms from the survey's stored displays and responses (when it is created or changes what it
 * reads): two grouped scans in the database, after which the writes keep the sums. `executor` is the guard's
 * write transaction; `scanner` runs the scans: on SQLite the open database, whose reads aside see what was
 * committed before the transaction (which holds the only write lock) without holding the event loop for a
 * million rows; on PostgreSQL the transaction itself.
 */
export async function rebuildArms(
  executor: Executor,
  guard: GuardOfSurvey & { survey_id: string },
  scanner: Executor = executor,
): Promise<void> {
  const { db } = executor;
  await db.deleteFrom('flag_guard_arms').where('guard_id', '=', guard.id).execute();
  const sums = new Map<string, { displays: number; answers: number; total: number; totalOfSquares: number }>();
  const armOf = (variant: string) => {
    const arm = armOfAssignment(variant);
    const entry = sums.get(arm) ?? { displays: 0, answers: 0, total: 0, totalOfSquares: 0 };
    sums.set(arm, entry);
    return entry;
  };
  const displays = await readAside(
    scanner,
    db
      .selectFrom('survey_displays')
      .select(['flag_variant', sql<number>`count(*)`.as('count')])
      .where('survey_id', '=', guard.survey_id)
      .where('flag_key', '=', guard.flag_key)
      .groupBy('flag_variant')
      .compile(),
  );
  for (const row of displays) if (row.flag_variant !== null) armOf(row.flag_variant).displays += Number(row.count);
  const value = observationSql(executor.dialect, sql`data`, guardValues(guard));
  const rows = await readAside(
    scanner,
    sql<{
      flag_variant: string | null;
      n: number | string;
      total: number | string | null;
      squares: number | string | null;
    }>`
    select flag_variant, count(v) as n, sum(v) as total, sum(v * v) as squares
    from (select flag_variant, ${value} as v from survey_responses
      where survey_id = ${guard.survey_id} and flag_key = ${guard.flag_key}) answers
    group by flag_variant`.compile(db),
  );
  for (const row of rows) {
    if (row.flag_variant === null) continue;
    const entry = armOf(row.flag_variant);
    entry.answers += Number(row.n);
    entry.total += Number(row.total ?? 0);
    entry.totalOfSquares += Number(row.squares ?? 0);
  }
  await applyDeltas(
    executor,
    [...sums].map(([arm, entry]) => ({ guardId: guard.id, arm, ...entry })),
  );
}

/**
 * Records a verdict made from `revision` (a newer write leaves the guard to be assessed again); a guard that has
 * acted keeps the verdict it acted on, and `verdict` undefined only marks the revision assessed.
 */
export async function recordAssessment(
  { db }: Executor,
  id: string,
  revision: number,
  verdict?: { state: string; reason: string; difference: unknown },
): Promise<void> {
  await db
    .updateTable('flag_guards')
    .set({
      assessed_revision: revision,
      ...(verdict && {
        state: verdict.state,
        reason: verdict.reason,
        difference: verdict.difference ? JSON.stringify(verdict.difference) : null,
      }),
    })
    .where('id', '=', id)
    .$if(verdict !== undefined, (query) => query.where('acted_at', 'is', null))
    .execute();
}

/** Marks the guard as acted on; true for the one caller (of every instance) that did. */
export async function claimTrip({ db }: Executor, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('flag_guards')
    .set({ acted_at: at, state: 'REGRESSED' })
    .where('id', '=', id)
    .where('acted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
