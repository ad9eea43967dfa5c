/**
 * Feedback guards (`/api/v1/namespaces/{namespaceKey}/flags/{flagKey}/guards`): checked against the flag and its
 * linked survey when written, assessed from their arms' running sums whenever those move, and acted on once,
 * by whichever instance first sees the regression, as an ordinary change of the flag made by the actor "guard".
 */
import { type Assessment, assessGuard, type GuardArm } from '../../domain/guards/assess.js';
import {
  armOfAssignment,
  expectedShares,
  GUARDED_QUESTION_TYPES,
  type Guard,
  GuardRequest,
  type GuardSettingsInput,
  linkValueOfArm,
  measureOf,
  rolledBack,
} from '../../domain/guards/guard.js';
import { meanOf, NO_MOMENTS } from '../../domain/guards/statistics.js';
import type { FlagState } from '../../domain/flipt/history.js';
import type { Flag } from '../../domain/flipt/types.js';
import type { TSurvey } from '../../domain/surveys/types.js';
import { nowTimestamp } from '../db/codec.js';
import type { Executor } from '../db/executor.js';
import { invalid, notFound, readOnly } from '../flipt/errors.js';
import { runAs } from '../flipt/store/actor.js';
import { flagIfAny } from '../flipt/store/flags.js';
import { type Actor, stateOf } from '../flipt/store/history.js';
import type { FliptStore } from '../flipt/store/index.js';
import { parse } from '../flipt/routes/http.js';
import type { Metrics } from '../metrics.js';
import { cuid } from '../surveys/ids.js';
import { namespaceOfEnvironment } from '../surveys/store/links.js';
import { survey as surveyById } from '../surveys/store/surveys.js';
import * as store from './store.js';

/** Who a guard's changes are recorded as made by. */
export const GUARD_ACTOR: Actor = { name: 'guard', metadata: { authentication: 'guard' } };

/** How often an instance looks for guards whose arms moved: a trip acts within this, plus the write. */
export const ASSESS_EVERY_MS = 500;

export class FeedbackGuards {
  private assessing?: Promise<void>;

  constructor(
    private readonly flipt: FliptStore,
    private readonly metrics?: Metrics,
  ) {}

  private get executor(): Executor {
    return this.flipt.database;
  }

  /** What scans the stored answers for a guard written in `transaction` (see store.rebuildArms). */
  private scanner(transaction: Executor): Executor {
    return this.executor.readAside ? this.executor : transaction;
  }

  async list(namespaceKey: string, flagKey: string): Promise<{ guards: Guard[] }> {
    await this.requireFlag(namespaceKey, flagKey);
    const rows = await store.guardsOfFlag(this.executor, namespaceKey, flagKey);
    return { guards: await Promise.all(rows.map((row) => this.wire(row))) };
  }

  async get(namespaceKey: string, flagKey: string, id: string): Promise<Guard> {
    return this.wire(await this.requireGuard(namespaceKey, flagKey, id));
  }

  async create(namespaceKey: string, flagKey: string, body: unknown): Promise<Guard> {
    if (this.flipt.readOnly) throw readOnly();
    const { settings, measure } = await this.checked(namespaceKey, flagKey, body);
    const id = cuid();
    const at = nowTimestamp();
    const row = { id, namespace_key: namespaceKey, flag_key: flagKey, ...columnsOf(settings, measure) };
    await this.flipt.database.transaction(async (db) => {
      const executor = { db, dialect: this.executor.dialect };
      await db
        .insertInto('flag_guards')
        .values({
          ...row,
          state: 'COLLECTING',
          reason: '',
          difference: null,
          acted_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await store.rebuildArms(executor, { ...row, survey_id: settings.surveyId }, this.scanner(executor));
    });
    return this.assessAndRead(namespaceKey, flagKey, id);
  }

  /** Replaces what the guard reads and does; its arms are read again and it may act again. */
  async update(namespaceKey: string, flagKey: string, id: string, body: unknown): Promise<Guard> {
    if (this.flipt.readOnly) throw readOnly();
    await this.requireGuard(namespaceKey, flagKey, id);
    const { settings, measure } = await this.checked(namespaceKey, flagKey, body);
    const columns = columnsOf(settings, measure);
    await this.flipt.database.transaction(async (db) => {
      await db
        .updateTable('flag_guards')
        .set({
          ...columns,
          state: 'COLLECTING',
          reason: '',
          difference: null,
          acted_at: null,
          updated_at: nowTimestamp(),
        })
        .where('id', '=', id)
        .execute();
      const executor = { db, dialect: this.executor.dialect };
      await store.rebuildArms(executor, { id, flag_key: flagKey, ...columns }, this.scanner(executor));
    });
    return this.assessAndRead(namespaceKey, flagKey, id);
  }

  async delete(namespaceKey: string, flagKey: string, id: string): Promise<Record<string, never>> {
    if (this.flipt.readOnly) throw readOnly();
    await this.requireGuard(namespaceKey, flagKey, id);
    await this.executor.db.deleteFrom('flag_guards').where('id', '=', id).execute();
    return {};
  }

  /** Assesses every guard whose arms moved since its last verdict (one round at a time). */
  assessPending(): Promise<void> {
    this.assessing ??= (async () => {
      try {
        for (const row of await store.guardsToAssess(this.executor)) await this.assess(row);
      } finally {
        this.assessing = undefined;
      }
    })();
    return this.assessing;
  }

  /** Looks for moved guards every ASSESS_EVERY_MS; returns the stop. */
  start(onError: (error: unknown) => void): () => void {
    const timer = setInterval(() => this.assessPending().catch(onError), ASSESS_EVERY_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async assessAndRead(namespaceKey: string, flagKey: string, id: string): Promise<Guard> {
    await this.assess(await this.requireGuard(namespaceKey, flagKey, id));
    return this.get(namespaceKey, flagKey, id);
  }

  private async assess(row: store.GuardRow): Promise<void> {
    const revision = Number(row.revision);
    if (row.acted_at !== null) return store.recordAssessment(this.executor, row.id, revision);
    const inputs = await this.assessmentInputs(row);
    if (!inputs) return store.recordAssessment(this.executor, row.id, revision);
    const assessment = assessGuard(inputs.baseline, inputs.guarded, {
      measure: store.measureOfRow(row),
      minimumRegression: row.minimum_regression,
      errorRate: row.error_rate,
      minimumSample: row.minimum_sample,
    });
    const regressed = assessment.state === 'REGRESSED' ? assessment.arm : null;
    const reason = regressed ? tripReason(assessment, row.baseline, regressed) : assessment.reason;
    await store.recordAssessment(this.executor, row.id, revision, { ...assessment, reason });
    this.metrics?.guardState(row.namespace_key, row.flag_key, row.id, assessment.state);
    if (regressed) await this.trip(row, assessment, regressed, reason);
  }

  /** The baseline's and the guarded arms' sums, with the share of displays the flag's configuration gives each. */
  private async assessmentInputs(row: store.GuardRow) {
    const survey = await surveyById(this.executor, row.survey_id);
    const state = (await stateOf(this.executor, 'flag', row.namespace_key, row.flag_key)) as FlagState | undefined;
    if (!survey || !state || survey.linkedFlag?.flagKey !== row.flag_key) return undefined;
    const linked = survey.linkedFlag.variants.map(armOfAssignment);
    const keys = [row.baseline, ...linked.filter((key) => key !== row.baseline)];
    const sums = await store.armSums(this.executor, row.id);
    const shares = expectedShares(state, keys, row.baseline);
    const arm = (key: string): GuardArm => {
      const sum = sums.get(key) ?? { displays: 0, answers: NO_MOMENTS };
      return { key, displays: sum.displays, expectedShare: shares?.get(key) ?? sum.displays, answers: sum.answers };
    };
    return { baseline: arm(row.baseline), guarded: keys.slice(1).map(arm) };
  }

  /**
   * Acts once on a regression: records it (alert) or serves the baseline instead of the regressed arm
   * (rollback). The guard is claimed in the transaction of its change, so that a guard is never marked as
   * acted without it (a crash in between lost the rollback), and of two instances that see the trip at
   * once, the second finds it claimed and changes nothing. Read-only storage takes no change: the trip is
   * recorded on the guard alone.
   */
  private async trip(row: store.GuardRow, assessment: Assessment, regressed: string, reason: string): Promise<void> {
    const at = nowTimestamp();
    if (this.flipt.readOnly) {
      await store.claimTrip(this.executor, row.id, at);
      return;
    }
    const rollBack = row.action === 'ROLLBACK';
    const payload = {
      key: row.flag_key,
      namespaceKey: row.namespace_key,
      guard: {
        id: row.id,
        surveyId: row.survey_id,
        questionId: row.question_id,
        action: rollBack ? 'ROLLBACK' : 'ALERT',
        reason,
        difference: assessment.difference,
        arms: [...(await store.armSums(this.executor, row.id))].map(([key, sum]) => ({
          key,
          displays: sum.displays,
          responses: sum.answers.n,
        })),
      },
    };
    const reconfigure = rollBack
      ? (state: FlagState) => rolledBack(state, regressed, row.baseline)
      : (state: FlagState) => state;
    await runAs(GUARD_ACTOR, () =>
      this.flipt.transaction(async (writer) => {
        if (await writer.within((transaction) => store.claimTrip(transaction, row.id, at)))
          await writer.reconfigureFlag(row.namespace_key, row.flag_key, reconfigure, payload);
      }),
    );
  }

  private async wire(row: store.GuardRow): Promise<Guard> {
    const sums = await store.armSums(this.executor, row.id);
    return {
      id: row.id,
      namespaceKey: row.namespace_key,
      flagKey: row.flag_key,
      surveyId: row.survey_id,
      environmentId: row.environment_id,
      questionId: row.question_id,
      ...(row.answer !== null && { answer: row.answer }),
      baseline: row.baseline,
      minimumRegression: row.minimum_regression,
      action: row.action as Guard['action'],
      errorRate: row.error_rate,
      minimumSample: row.minimum_sample,
      state: row.state as Guard['state'],
      reason: row.reason,
      arms: [...sums].map(([key, sum]) => ({
        key,
        displays: sum.displays,
        responses: sum.answers.n,
        estimate: sum.answers.n === 0 ? null : meanOf(sum.answers),
      })),
      difference: row.difference ? JSON.parse(row.difference) : null,
      actedAt: row.acted_at,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private async requireFlag(namespaceKey: string, flagKey: string): Promise<Flag> {
    const flag = await flagIfAny(this.executor, namespaceKey, flagKey);
    if (!flag) throw notFound(`flag "${namespaceKey}/${flagKey}"`);
    return flag;
  }

  private async requireGuard(namespaceKey: string, flagKey: string, id: string): Promise<store.GuardRow> {
    await this.requireFlag(namespaceKey, flagKey);
    const row = await store.guardRow(this.executor, namespaceKey, flagKey, id);
    if (!row) throw notFound(`guard "${id}"`);
    return row;
  }

  /** The request's settings, once the flag, the survey, its question and the baseline are known to fit together. */
  private async checked(namespaceKey: string, flagKey: string, body: unknown) {
    const settings = parse(GuardRequest, body);
    const flag = await this.requireFlag(namespaceKey, flagKey);
    const survey = await surveyById(this.executor, settings.surveyId);
    if (!survey) throw invalid(`survey "${settings.surveyId}" not found`);
    if (survey.environmentId !== settings.environmentId)
      throw invalid(`survey "${survey.id}" is not in environment "${settings.environmentId}"`);
    if (
      survey.linkedFlag?.flagKey !== flagKey ||
      (await namespaceOfEnvironment(this.executor, survey.environmentId)) !== namespaceKey
    )
      throw invalid(`survey "${survey.id}" is not linked to flag "${flagKey}"`);
    const question = checkedQuestion(survey, settings);
    checkBaseline(flag, survey.linkedFlag.variants, settings.baseline);
    return { settings, measure: measureOf(question.type, settings.answer) };
  }
}

function checkedQuestion(survey: TSurvey, settings: GuardSettingsInput) {
  const question = survey.questions.find((candidate) => candidate.id === settings.questionId);
  if (!question) throw invalid(`question "${settings.questionId}" not found in survey "${survey.id}"`);
  if (!(GUARDED_QUESTION_TYPES as readonly string[]).includes(question.type))
    throw invalid(
      `question "${question.id}" is a ${question.type} question: a guard reads an NPS, rating or choice question`,
    );
  if ('choices' in question) {
    const labels = (question.choices as readonly { label: string }[]).map((choice) => choice.label);
    if (settings.answer === undefined) throw invalid(`answer: name the choice of question "${question.id}" to read`);
    if (!labels.includes(settings.answer))
      throw invalid(`answer "${settings.answer}" is not a choice of question "${question.id}"`);
  }
  return question;
}

function checkBaseline(flag: Flag, linked: readonly string[], baseline: string): void {
  if (flag.type === 'BOOLEAN_FLAG_TYPE') {
    if (baseline !== 'true' && baseline !== 'false')
      throw invalid(`baseline "${baseline}" is not a value of boolean flag "${flag.key}": use true or false`);
  } else if (!flag.variants.some((variant) => variant.key === baseline)) {
    throw invalid(`variant "${baseline}" not found in flag "${flag.key}"`);
  }
  const linkValue = linkValueOfArm(baseline, flag.type);
  if (!linked.includes(linkValue))
    throw invalid(`the survey is not shown to baseline "${baseline}" (it is linked to ${linked.join(', ')})`);
  if (linked.every((value) => value === linkValue))
    throw invalid(`the survey is shown only to baseline "${baseline}": link it to the values to compare too`);
}

function columnsOf(settings: GuardSettingsInput, measure: ReturnType<typeof measureOf>) {
  return {
    survey_id: settings.surveyId,
    environment_id: settings.environmentId,
    question_id: settings.questionId,
    measure: measure.kind,
    answer: measure.kind === 'share' ? measure.choice : null,
    baseline: settings.baseline,
    minimum_regression: settings.minimumRegression,
    action: settings.action,
    error_rate: settings.errorRate,
    minimum_sample: settings.minimumSample,
  };
}

function tripReason(assessment: Assessment, baseline: string, regressed: string): string {
  const difference = assessment.difference;
  const round = (value: number) => Math.round(value * 100) / 100;
  const interval = difference
    ? `: ${round(difference.estimate)} (always-valid interval ${round(difference.lower)} to ${round(difference.upper)})`
    : '';
  return `${regressed} answers worse than ${baseline}${interval}`;
}
