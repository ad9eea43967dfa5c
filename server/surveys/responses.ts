import * as v from 'valibot';
import type { Metrics } from '../metrics.js';
import { badRequest, notFound } from './errors.js';
import type { FlagAssignments } from './flag-assignments.js';
import { environmentOfPath, environmentParams } from './client-environment.js';
import { isMobile } from './identified-sync.js';
import { SurveyStore } from './store/index.js';
import type { TEnvironment, TResponseData, TSurvey } from '../../domain/surveys/types.js';
import { route } from '../route-definitions.js';
import { cuidString, plainObject, userIdString } from './validation.js';
import type { WebhookDispatcher } from './webhooks.js';
import type { WebhookTrigger } from './store/webhooks.js';

const responseParams = v.object({ environmentId: cuidString, responseId: cuidString });
const responseValue = v.union(
  [v.string(), v.number(), v.array(v.string()), v.record(v.string(), v.string())],
  'must be a string, number, list of strings or string map',
);
export const responseData = plainObject(v.record(v.string(), responseValue), 'must be an object');
export const ttc = plainObject(
  v.record(v.string(), v.pipe(v.number('must be a number'), v.minValue(0))),
  'must be an object of numbers',
);
const responseCreateFields = v.object({
  surveyId: cuidString,
  userId: v.optional(v.nullable(userIdString), null),
  singleUseId: v.optional(v.nullable(v.string()), null),
  finished: v.boolean('must be a boolean'),
  data: responseData,
  ttc: v.optional(ttc),
  meta: v.optional(v.object({ source: v.optional(v.string()), url: v.optional(v.string()) })),
});
/** Clients before 1.4 sent the user as `personId`. */
function userIdFromPersonId(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('personId' in body) || 'userId' in body) return body;
  return { ...body, userId: body.personId, personId: undefined };
}
const responseCreateBody = v.pipe(v.unknown(), v.transform(userIdFromPersonId), responseCreateFields);
const responseUpdateBody = v.object({
  finished: v.boolean('must be a boolean'),
  data: responseData,
  ttc: v.optional(ttc),
});

/** What recording a response needs, built once. */
export interface ResponseDeps {
  store: SurveyStore;
  assignments: FlagAssignments;
  webhooks: WebhookDispatcher;
  metrics?: Metrics;
}

/** A visitor known as a person: their id and the user id flags are evaluated for. */
export interface KnownPerson {
  personId: string;
  userId: string;
}

/** The 1.6 client's visitor: the person of `userId` in the environment, made on first sight; none without one. */
export async function personOfUser(
  store: SurveyStore,
  environmentId: string,
  userId: string | null | undefined,
): Promise<KnownPerson | null> {
  return userId ? { personId: await store.ensurePerson(environmentId, userId), userId } : null;
}

/** The survey a response is for: unknown is a 404, one of another environment a 400 (as Formbricks answers). */
export async function surveyForResponse(store: SurveyStore, environment: TEnvironment, surveyId: string) {
  const survey = SurveyStore.required(await store.survey(surveyId), 'Survey', surveyId);
  if (survey.environmentId !== environment.id) {
    throw badRequest('Survey is part of another environment', {
      'survey.environmentId': survey.environmentId,
      environmentId: environment.id,
    });
  }
  return survey;
}

export interface NewResponse {
  person: KnownPerson | null;
  finished: boolean;
  data: TResponseData;
  meta?: { source?: string; url?: string };
  userAgent: string;
}

/**
 * Records a client's first answer to a survey, whichever client generation sent it: the flag assignment the
 * person was shown, the person's attributes, metrics, auto-complete and webhooks. Returns its id.
 */
export async function recordResponse(
  { store, assignments, webhooks, metrics }: ResponseDeps,
  survey: TSurvey,
  response: NewResponse,
): Promise<string> {
  const { person } = response;
  const flag = person && survey.linkedFlag ? await assignments.shown(survey, person.userId, person.personId) : null;
  const id = await store.createResponse({
    environmentId: survey.environmentId,
    surveyId: survey.id,
    personId: person?.personId ?? null,
    finished: response.finished,
    data: response.data,
    meta: {
      source: response.meta?.source,
      url: response.meta?.url,
      userAgent: describeUserAgent(response.userAgent),
    },
    personAttributes: person ? await store.attributes(person.personId) : null,
    flag,
  });
  metrics?.surveyResponses.inc();
  if (response.finished) await store.completeIfDue(survey.id);
  const events: WebhookTrigger[] = response.finished ? ['responseCreated', 'responseFinished'] : ['responseCreated'];
  await webhooks.responseEvents(survey.environmentId, survey.id, id, events);
  return id;
}

/** PUT /responses/{id}: the next answers of a response, from clients of every generation. */
export function responseUpdateRoute({ store, webhooks }: ResponseDeps) {
  return route({
    method: 'PUT',
    url: '/:environmentId/responses/:responseId',
    params: responseParams,
    load: environmentOfPath(store),
    body: responseUpdateBody,
    handler: async ({ params: { responseId }, loaded: environment, body }) => {
      const surveyId = await store.updateResponse(environment.id, responseId, body);
      if (!surveyId) throw notFound('Response', responseId);
      if (body.finished) await store.completeIfDue(surveyId);
      const events: WebhookTrigger[] = body.finished ? ['responseUpdated', 'responseFinished'] : ['responseUpdated'];
      await webhooks.responseEvents(environment.id, surveyId, responseId, events);
      return { data: {} };
    },
  });
}

/** Formbricks 1.6 client API: the widget's responses, created with the first answer and updated with the next. */
export function responseRoutes(deps: ResponseDeps) {
  const { store } = deps;
  return [
    route({
      method: 'POST',
      url: '/:environmentId/responses',
      params: environmentParams,
      load: environmentOfPath(store),
      body: responseCreateBody,
      handler: async ({ loaded: environment, body }, request) => {
        const survey = await surveyForResponse(store, environment, body.surveyId);
        const person = await personOfUser(store, environment.id, body.userId);
        const id = await recordResponse(deps, survey, {
          person,
          finished: body.finished,
          data: body.data,
          meta: body.meta,
          userAgent: request.headers['user-agent'] ?? '',
        });
        return { data: { id } };
      },
    }),
    responseUpdateRoute(deps),
  ];
}

/** Browser, operating system and device class from a User-Agent, as Formbricks records them in `meta.userAgent`. */
function describeUserAgent(userAgent: string): { browser?: string; os?: string; device: string } {
  const browser = [
    ['Edg/', 'Edge'],
    ['Firefox/', 'Firefox'],
    ['Chrome/', 'Chrome'],
    ['Safari/', 'Safari'],
  ].find(([token]) => userAgent.includes(token))?.[1];
  const os = [
    ['Android', 'Android'],
    ['iPhone', 'iOS'],
    ['iPad', 'iOS'],
    ['Windows', 'Windows'],
    ['Mac OS', 'Mac OS'],
    ['Linux', 'Linux'],
  ].find(([token]) => userAgent.includes(token))?.[1];
  return { browser, os, device: isMobile(userAgent) ? 'mobile' : 'desktop' };
}
