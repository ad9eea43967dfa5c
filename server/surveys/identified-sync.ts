import { needsIdentity, passesFlagTargeting, type TargetingNamespace } from '../../domain/surveys/eligibility.js';
import type { HttpAnswer } from '../http/answer.js';
import type { SurveyStore } from './store/index.js';
import { type EnvironmentState, visitorAnswer } from './sync.js';
import { surveysForVisitor } from './targeting.js';

export interface SyncingVisitor {
  userId: string;
  userAgent: string;
  /** Clients older than 1.6 send no version and read the person from the sync. */
  withPerson: boolean;
}

/**
 * The identified sync's `{data}` answer for a visitor of a kept environment; both paths of the hot route
 * send it. A visitor with no person yet gets one only when `beforeCreating` is given (it counts the
 * creation against the survey write limit, and may throw to refuse it); without it the answer is undefined.
 */
export type IdentifiedSync = (
  state: EnvironmentState,
  visitor: SyncingVisitor,
  beforeCreating?: () => Promise<void>,
) => Promise<Buffer | undefined>;

export const isMobile = (userAgent: string) => /mobile|android|iphone|ipod/i.test(userAgent);

/**
 * The surveys the visitor may see now: display options, recontact days and attribute filters against
 * the person's stored rows (the person is created on their first sync), then linked flags and Flipt
 * segments checked with the evaluation engine, uncounted (an eligibility check is not an evaluation).
 */
export function identifiedSync(
  store: SurveyStore,
  targeting: (environmentId: string) => Promise<TargetingNamespace>,
): IdentifiedSync {
  return async (state, { userId, userAgent, withPerson }, beforeCreating) => {
    const environmentId = state.environment.id;
    let visitor = await store.visitor(environmentId, userId);
    if (!visitor) {
      if (!beforeCreating) return undefined;
      await beforeCreating();
      visitor = { personId: await store.ensurePerson(environmentId, userId), attributes: {}, displays: [] };
    }
    const { personId, attributes, displays } = visitor;
    const device = isMobile(userAgent) ? 'phone' : 'desktop';
    let surveys = surveysForVisitor(state.surveys, state.product, { userId, attributes, device, displays });
    if (surveys.some(needsIdentity)) {
      const namespace = await targeting(environmentId);
      surveys = surveys.filter((survey) => passesFlagTargeting(survey, namespace, { userId, attributes }));
    }
    return visitorAnswer(state, surveys, withPerson ? { id: personId, userId, attributes } : undefined);
  };
}

/** A JSON answer of the client API's hot routes, with the headers its scope gives (any origin may read it). */
export function clientAnswer(cacheControl: string, body: Buffer): HttpAnswer {
  return {
    status: 200,
    headers: [
      'cache-control',
      cacheControl,
      'access-control-allow-origin',
      '*',
      'cross-origin-resource-policy',
      'cross-origin',
      'content-type',
      'application/json; charset=utf-8',
    ],
    body,
  };
}

/** The identified sync's answer, never cached. */
export const identifiedAnswer = (body: Buffer): HttpAnswer => clientAnswer('no-store', body);
