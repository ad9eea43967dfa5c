import { createHash } from 'node:crypto';
import type { TEnvironment, TProduct, TSurvey } from '../../domain/surveys/types.js';
import { ALL_NAMESPACES, type ChangeFeed } from '../changes.js';
import type { HttpAnswer } from '../http/answer.js';
import { etagMatches } from '../evaluation/ofrep.js';
import { SURVEY_CONTENT, type SurveyStore } from './store/index.js';
import { isPublicSurvey } from './targeting.js';

/**
 * What every sync of one environment shares, read once per revision of the survey content: the
 * environment, its surveys and no-code action classes, its product, and the anonymous sync's answer
 * as bytes with their ETag. Any committed write to that content (console, management API, seed; on
 * this instance, another worker or another instance on the same PostgreSQL database) drops every
 * kept state through the change feed (store/content-changes.ts); the next sync reads them again.
 */
export interface EnvironmentState {
  environment: TEnvironment;
  /** Every survey of the environment, newest first. */
  surveys: TSurvey[];
  product: TProduct;
  /** The anonymous sync's `{data}` answer, in UTF-8. */
  anonymous: Buffer;
  /** A strong ETag over `anonymous`: equal on every instance serving the same content. */
  etag: string;
  /** Each survey's JSON and the answer's closing part, in UTF-8, to assemble a visitor's answer from (visitorAnswer). */
  parts: { surveys: Map<string, Buffer>; closing: Buffer };
  /** Answers without a person already assembled, by the ids of their surveys: visitors see few different sets. */
  answers: Map<string, Buffer>;
  /** When the first running survey's close date passes (then the anonymous answer changes), in epoch ms. */
  expiresAt: number;
}

/** A survey in Formbricks' wire shape: its flag link and Flipt segment stay on the server. */
const wireSurvey = ({ linkedFlag: _flag, segmentKey: _segment, ...survey }: TSurvey) => survey;

export class SyncStates {
  private readonly states = new Map<string, EnvironmentState | Promise<EnvironmentState | undefined>>();
  /** Bumped by every change: a state read under an older revision is not kept. */
  private revision = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: SurveyStore,
    changes: ChangeFeed,
  ) {
    this.unsubscribe = changes.subscribe((key) => {
      if (key !== SURVEY_CONTENT && key !== ALL_NAMESPACES) return;
      this.revision++;
      this.states.clear();
    });
  }

  /** The environment's state, synchronously when it is kept; undefined when there is no such environment. */
  get(environmentId: string): EnvironmentState | Promise<EnvironmentState | undefined> {
    const kept = this.states.get(environmentId);
    if (kept && (kept instanceof Promise || kept.expiresAt > Date.now())) return kept;
    const revision = this.revision;
    const reading = this.read(environmentId).then(
      (state) => {
        if (this.revision !== revision) return this.get(environmentId);
        if (state) this.states.set(environmentId, state);
        else this.states.delete(environmentId);
        return state;
      },
      (error: unknown) => {
        if (this.states.get(environmentId) === reading) this.states.delete(environmentId);
        throw error;
      },
    );
    this.states.set(environmentId, reading);
    return reading;
  }

  /** The environment's state if it is kept and current, else undefined (it is not read). */
  kept(environmentId: string): EnvironmentState | undefined {
    const kept = this.states.get(environmentId);
    return kept && !(kept instanceof Promise) && kept.expiresAt > Date.now() ? kept : undefined;
  }

  close(): void {
    this.unsubscribe();
    this.states.clear();
  }

  private async read(environmentId: string): Promise<EnvironmentState | undefined> {
    const environment = await this.store.environment(environmentId);
    if (!environment) return undefined;
    const [surveys, noCodeActionClasses, product] = await Promise.all([
      this.store.surveys(environment.id),
      this.store.noCodeActionClasses(environment.id),
      this.store.product(environment),
    ]);
    const now = Date.now();
    const anonymous = Buffer.from(
      JSON.stringify({
        data: {
          surveys: surveys.filter((survey) => isPublicSurvey(survey, now)).map(wireSurvey),
          noCodeActionClasses,
          product,
          person: null,
        },
      }),
    );
    const closing = surveys
      .map((survey) => (survey.closeOnDate ? Date.parse(survey.closeOnDate) : Number.NaN))
      .filter((at) => at > now);
    return {
      environment,
      surveys,
      product,
      anonymous,
      etag: `"${createHash('sha1').update(anonymous).digest('base64url')}"`,
      answers: new Map(),
      parts: {
        surveys: new Map(surveys.map((survey) => [survey.id, Buffer.from(JSON.stringify(wireSurvey(survey)))])),
        closing: Buffer.from(
          `],"noCodeActionClasses":${JSON.stringify(noCodeActionClasses)},"product":${JSON.stringify(product)}`,
        ),
      },
      expiresAt: Math.min(Infinity, ...closing),
    };
  }
}

/**
 * The anonymous sync's answer: 304 to the ETag it gave, else the kept bytes; to be revalidated by
 * browsers (`no-cache`), from any origin. Both paths of the survey client's hot route send it.
 */
export function anonymousAnswer(state: EnvironmentState, ifNoneMatch: string | undefined): HttpAnswer {
  const headers = [
    'cache-control',
    'no-cache',
    'etag',
    state.etag,
    'access-control-allow-origin',
    '*',
    'cross-origin-resource-policy',
    'cross-origin',
  ];
  if (etagMatches(ifNoneMatch, state.etag)) return { status: 304, headers };
  return {
    status: 200,
    headers: [...headers, 'content-type', JSON_TYPE],
    body: state.anonymous,
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

const OPENING = Buffer.from('{"data":{"surveys":[');
const COMMA = Buffer.from(',');
const END = Buffer.from('}}');

/** How many assembled answers an environment's state keeps (each as big as the anonymous answer at most). */
export const KEPT_ANSWERS = 16;

/**
 * An identified visitor's `{data}` answer in UTF-8, copied together from the state's kept parts: the
 * given surveys (those the visitor may see), the no-code action classes, the product and, for clients
 * before 1.6, the person. Copying kept bytes instead of encoding the answer's text on every sync takes an
 * eighth off the sync's CPU time (docs/decisions.md, "The identified sync"); an answer without a person
 * is kept for the next visitor who sees the same surveys.
 */
export function visitorAnswer(state: EnvironmentState, surveys: TSurvey[], person?: object): Buffer {
  const key = person ? undefined : surveys.map((survey) => survey.id).join();
  const kept = key === undefined ? undefined : state.answers.get(key);
  if (kept) return kept;
  const parts: Buffer[] = [OPENING];
  for (const [i, survey] of surveys.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(state.parts.surveys.get(survey.id)!);
  }
  parts.push(state.parts.closing);
  if (person) parts.push(Buffer.from(`,"person":${JSON.stringify(person)}`));
  parts.push(END);
  const answer = Buffer.concat(parts);
  if (key !== undefined && state.answers.size < KEPT_ANSWERS) state.answers.set(key, answer);
  return answer;
}
