/**
 * Feedback guards' rows and their arms' running sums. The display and response writes call `guardDisplayAdded`
 * and `guardAnswersMoved` in their own transaction, so an arm's sums always match the stored displays and
 * answers, and the arms' writes bump the guard's `revision` (a trigger, migration 0016); the monitor (guards.ts)
 * assesses the guards whose revision moved.
 */
import { type Selectable, sql } from 'kysely';
import type { Measure } from '../../domain/guards/assess.js';
import { armOfAssignment } from '../../domain/guards/guard.js';
import type { Moments } from '../../domain/guards/statistics.js';
import { observationOf } from '../../domain/guards/assess.js';
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
 * rather than read back. `assignment` is the response's flag assignment: without one, or when no guard reads the
 * survey for its flag, nothing is written; a guard whose answer did not change is left as it is.
 */
export async function guardAnswersMoved(
  executor: Executor,
  surveyId: string,
  assignment: FlagAssignment | null,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): Promise<void> {
  if (!assignment) return;
  const guards = await guardsOfSurvey(executor, surveyId, assignment.flagKey);
  if (guards.length === 0) return;
  const arm = armOfAssignment(assignment.variant);
  const deltas = guards.flatMap((guard): ArmDelta[] => {
    const measure = measureOfRow(guard);
    const was = before && observationOf(measure, before[guard.question_id]);
    const is = after && observationOf(measure, after[guard.question_id]);
    if (was === is) return [];
    const answers = (is === undefined ? 0 : 1) - (was === undefined ? 0 : 1);
    const total = (is ?? 0) - (was ?? 0);
    const totalOfSquares = (is ?? 0) ** 2 - (was ?? 0) ** 2;
    return [{ guardId: guard.id, arm, displays: 0, answers, total, totalOfSquares }];
  });
  await applyDeltas(executor, deltas);
}

/**
 * What an answer to the guard's question counts as, in SQL over `survey_responses.data` (as `observationOf` in
 * domain/guards/assess.ts): NPS +100, 0 or -100; a rating itself; for a choice, 1 when the answer (or the list of
 * answers) names it, else 0. NULL when the answer does not count.
 */
function observationSql(dialect: Executor['dialect'], guard: Pick<GuardRow, 'question_id' | 'measure' | 'answer'>) {
  const postgres = dialect === 'postgres';
  // SQLite's JSON path of the top-level member.
  const path = `$."${guard.question_id.replaceAll('"', '\\"')}"`;
  const member = postgres ? sql`(data::jsonb -> ${guard.question_id})` : sql`json_extract(data, ${path})`;
  const type = postgres ? sql`jsonb_typeof(data::jsonb -> ${guard.question_id})` : sql`json_type(data, ${path})`;
  if (guard.measure === 'share') {
    const choice = guard.answer ?? '';
    const isString = postgres ? sql`${type} = 'string'` : sql`${type} = 'text'`;
    const text = postgres ? sql`(data::jsonb ->> ${guard.question_id})` : member;
    const holds = postgres
      ? sql`jsonb_exists(data::jsonb -> ${guard.question_id}, ${choice})`
      : sql`exists (select 1 from json_each(data, ${path}) where value = ${choice})`;
    return sql<number | null>`case when ${isString} then (case when ${text} = ${choice} then 1 else 0 end)
      when ${type} = 'array' then (case when ${holds} then 1 else 0 end) end`;
  }
  const isNumber = postgres ? sql`${type} = 'number'` : sql`${type} in ('integer', 'real')`;
  const value = postgres ? sql`(data::jsonb ->> ${guard.question_id})::float8` : member;
  if (guard.measure === 'rating') return sql<number | null>`case when ${isNumber} then ${value} end`;
  return sql<
    number | null
  >`case when ${isNumber} then (case when ${value} >= 9 then 100 when ${value} <= 6 then -100 else 0 end) end`;
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
  const value = observationSql(executor.dialect, guard);
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
