/**
 * The two states today's Formbricks clients keep (docs/compatibility.md, "Today's Formbricks clients"):
 * the environment state, the same for every visitor and kept as bytes per kept sync state, and a
 * person's user state, whose `segments` say which surveys the server lets them see.
 */
import {
  currentActionClass,
  currentSurvey,
  currentWorkspace,
  segmentIdOf,
} from '../../domain/surveys/current-shape.js';
import { needsIdentity, passesFlagTargeting } from '../../domain/surveys/eligibility.js';
import type { TActionClass } from '../../domain/surveys/types.js';
import type { HttpAnswer } from '../http/answer.js';
import type { Targeting } from './flag-assignments.js';
import { clientAnswer, isMobile } from './identified-sync.js';
import type { StoredVisitor } from './store/index.js';
import type { EnvironmentState } from './sync.js';
import { inFilterSegment, isRunning } from './targeting.js';

/** How many surveys the environment state carries at most, newest first (as Formbricks serves them). */
export const MAX_STATE_SURVEYS = 30;
/** How long a client keeps the environment state, and a user state. */
export const ENVIRONMENT_STATE_TTL_MS = 60 * 60 * 1000;
export const USER_STATE_TTL_MS = 30 * 60 * 1000;

/**
 * The environment state's answer up to its expiry, as UTF-8 bytes, kept with the sync state it was made from:
 * an answer copies it and adds the time (encoding the text on every request took half the route's time).
 */
const keptStates = new WeakMap<EnvironmentState, Buffer>();

/**
 * The answer of `GET .../environment` up to its expiry: as inner `data`, the running app surveys (newest
 * first, at most 30) in today's shape, every action class, and the product's settings as `workspace` and
 * again as `project` (its legacy name). Kept until the sync state is dropped (a write to survey content drops it).
 */
export function environmentStateHead(state: EnvironmentState, actionClasses: TActionClass[], now = Date.now()): Buffer {
  const kept = keptStates.get(state);
  if (kept !== undefined) return kept;
  const workspace = currentWorkspace(state.environment.id, state.product);
  const json = JSON.stringify({
    surveys: state.surveys
      .filter((survey) => isRunning(survey, now))
      .slice(0, MAX_STATE_SURVEYS)
      .map(currentSurvey),
    actionClasses: actionClasses.map(currentActionClass),
    workspace,
    project: workspace,
  });
  const head = Buffer.from(`{"data":{"data":${json},"expiresAt":"`);
  keptStates.set(state, head);
  return head;
}

/** The environment state's kept bytes when they are kept with the sync state, else undefined (nothing is read). */
export const keptEnvironmentStateHead = (state: EnvironmentState): Buffer | undefined => keptStates.get(state);

/** What clients cache the environment state for, besides its `expiresAt` (as a Formbricks server says). */
const ENVIRONMENT_CACHE = 'public, s-maxage=60, max-age=60, stale-while-revalidate=60, stale-if-error=60';

/** `{data: {data, expiresAt}}` of `GET .../environment`, with the headers of the client API's scope. */
export function environmentStateAnswer(head: Buffer, now = Date.now()): HttpAnswer {
  const expiresAt = new Date(now + ENVIRONMENT_STATE_TTL_MS).toISOString();
  return clientAnswer(ENVIRONMENT_CACHE, Buffer.concat([head, Buffer.from(`${expiresAt}"}}`)]));
}

export interface UserState {
  userId: string;
  contactId: string;
  segments: string[];
  displays: { surveyId: string; createdAt: string }[];
  responses: string[];
  lastDisplayAt: string | null;
  language?: string;
}

/**
 * A person's user state: the ids of the segments they are in (each running survey's rule of membership:
 * its 1.6 segment filters, its Flipt segment and its linked flag, checked with the evaluation engine and
 * not counted as evaluations), their displays newest first, the surveys they answered, their last display
 * and their language. Display options and recontact days are left to the client, which applies them to
 * these displays.
 */
export async function userState(
  state: EnvironmentState,
  targeting: Targeting,
  userId: string,
  visitor: StoredVisitor,
  userAgent: string,
  now = Date.now(),
): Promise<UserState> {
  const { attributes, displays } = visitor;
  const running = state.surveys.filter((survey) => isRunning(survey, now));
  const namespace = running.some(needsIdentity) ? await targeting(state.environment.id) : undefined;
  const device = isMobile(userAgent) ? ('phone' as const) : ('desktop' as const);
  const segments = new Set<string>();
  for (const survey of running) {
    const id = segmentIdOf(survey);
    if (segments.has(id)) continue;
    if (!inFilterSegment(survey, { userId, attributes, device })) continue;
    if (namespace && !passesFlagTargeting(survey, namespace, { userId, attributes })) continue;
    segments.add(id);
  }
  const answered = new Set(displays.filter((display) => display.responseId !== null).map((d) => d.surveyId));
  return {
    userId,
    contactId: visitor.personId,
    segments: [...segments],
    displays: displays.map(({ surveyId, createdAt }) => ({ surveyId, createdAt })),
    responses: [...answered],
    lastDisplayAt: displays[0]?.createdAt ?? null,
    ...(attributes.language !== undefined && { language: attributes.language }),
  };
}
