import type { FastifyRequest } from 'fastify';
import { HAND_OVER, type RouteTable } from '../route-definitions.js';
import * as v from 'valibot';
import { flagAssignment, type TargetingNamespace } from '../../domain/surveys/eligibility.js';
import type { TEnvironment, TSurvey } from '../../domain/surveys/types.js';
import { badRequest, notFound } from './errors.js';
import {
  MAX_ACTION_NAME_LENGTH,
  MAX_ATTRIBUTES_PER_PERSON,
  MAX_ATTRIBUTE_KEY_LENGTH,
  MAX_ATTRIBUTE_VALUE_LENGTH,
  MAX_CLIENT_ACTION_CLASSES,
  SurveyStore,
} from './store/index.js';
import { type IdentifiedSync, identifiedAnswer, isMobile } from './identified-sync.js';
import { anonymousAnswer, type SyncStates } from './sync.js';
import type { Metrics } from '../metrics.js';
import { cuidString, parseInput, plainObject, userIdString } from './validation.js';
import type { WebhookDispatcher } from './webhooks.js';

const environmentParams = v.object({ environmentId: cuidString });
const syncParams = v.object({ environmentId: cuidString, userId: userIdString });
/** Any value, or none: 1.6 clients send their version, older ones nothing. */
const syncQuery = v.object({ version: v.optional(v.unknown()) });
const displayParams = v.object({ environmentId: cuidString, displayId: cuidString });
const responseParams = v.object({ environmentId: cuidString, responseId: cuidString });

const responseValue = v.union(
  [v.string(), v.number(), v.array(v.string()), v.record(v.string(), v.string())],
  'must be a string, number, list of strings or string map',
);
const responseData = plainObject(v.record(v.string(), responseValue), 'must be an object');
const ttc = plainObject(
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
const displayCreateBody = v.object({
  surveyId: cuidString,
  userId: v.optional(userIdString),
  responseId: v.optional(cuidString),
});
const displayUpdateBody = v.object({ userId: v.optional(userIdString), responseId: v.optional(cuidString) });
const actionBody = v.object({
  userId: userIdString,
  name: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(MAX_ACTION_NAME_LENGTH, `must be at most ${MAX_ACTION_NAME_LENGTH} characters`),
  ),
});
const personCreateBody = v.object({ userId: userIdString });
const attributesBody = v.object({
  attributes: plainObject(
    v.pipe(
      v.record(
        v.pipe(
          v.string(),
          v.minLength(1, 'attribute names must not be empty'),
          v.maxLength(
            MAX_ATTRIBUTE_KEY_LENGTH,
            `attribute names must be at most ${MAX_ATTRIBUTE_KEY_LENGTH} characters`,
          ),
        ),
        v.pipe(
          v.union([v.string(), v.number()], 'must be a string or a number'),
          v.check(
            (value) => String(value).length <= MAX_ATTRIBUTE_VALUE_LENGTH,
            `attribute values must be at most ${MAX_ATTRIBUTE_VALUE_LENGTH} characters`,
          ),
        ),
      ),
      v.check(
        (attributes) => Object.keys(attributes).length <= MAX_ATTRIBUTES_PER_PERSON,
        `at most ${MAX_ATTRIBUTES_PER_PERSON} attributes may be set at once`,
      ),
    ),
    'must be an object',
  ),
});

/** Formbricks 1.6 client API: everything the in-app widget calls, answered as `{data}`. */
export function clientRoutes(
  routes: RouteTable,
  store: SurveyStore,
  syncStates: SyncStates,
  targeting: (environmentId: string) => Promise<TargetingNamespace>,
  identified: IdentifiedSync,
  webhooks: WebhookDispatcher,
  metrics?: Metrics,
): void {
  /** Loads the route's environment before its body is checked: an unknown one is a 404 whatever the body. */
  const environment = ({ params }: { params: { environmentId: string } }) =>
    environmentById(store, params.environmentId);
  /** The environment's sync state, read when not kept (404 when unknown); the first sync tells the operator the widget is installed. */
  const syncStateOf = async (environmentId: string) => {
    const state = async () => SurveyStore.required(await syncStates.get(environmentId), 'Environment', environmentId);
    const kept = await state();
    if (kept.environment.widgetSetupCompleted) return kept;
    // The answer already says so: the write drops the kept state, read again.
    await store.markWidgetSetupCompleted(environmentId);
    return state();
  };
  /** On the hot path, only a kept state of an installed widget: anything else is read (or written) by Fastify's route. */
  const keptState = (environmentId: string) => {
    const state = syncStates.kept(environmentId);
    return state?.environment.widgetSetupCompleted ? state : undefined;
  };

  /** What the linked flag gives the person now, from their stored attributes. */
  const assignmentNow = async (environmentId: string, flagKey: string, userId: string, personId: string) => {
    const [namespace, attributes] = await Promise.all([targeting(environmentId), store.attributes(personId)]);
    return flagAssignment(namespace, flagKey, { userId, attributes }) ?? null;
  };
  /** A response keeps the assignment of the person's latest display of the survey (else what the flag gives now). */
  const assignmentShown = async (survey: TSurvey, userId: string, personId: string) => {
    const shown = (await store.displaysOfPerson(personId)).find(
      (display) => display.surveyId === survey.id && display.flag !== null,
    );
    return shown?.flag ?? (await assignmentNow(survey.environmentId, survey.linkedFlag!.flagKey, userId, personId));
  };

  // The same for every anonymous visitor: kept as bytes, revalidated by browsers with its ETag.
  routes.add({
    method: 'GET',
    url: '/:environmentId/in-app/sync',
    params: environmentParams,
    hot: true,
    handler: ({ params: { environmentId } }, request) => {
      const ifNoneMatch = request.headers['if-none-match'];
      if (!request.onHotPath) return syncStateOf(environmentId).then((state) => anonymousAnswer(state, ifNoneMatch));
      const state = keptState(environmentId);
      return state ? anonymousAnswer(state, ifNoneMatch) : HAND_OVER;
    },
  });

  routes.add({
    method: 'GET',
    url: '/:environmentId/in-app/sync/:userId',
    params: syncParams,
    query: syncQuery,
    hot: true,
    handler: async ({ params: { environmentId, userId }, query }, request) => {
      const state = request.onHotPath ? keptState(environmentId) : await syncStateOf(environmentId);
      if (!state) return HAND_OVER;
      const visitor = {
        userId,
        userAgent: request.headers['user-agent'] ?? '',
        // Clients older than 1.6 send no version and read the person from the sync.
        withPerson: query.version === undefined,
      };
      // A visitor seen for the first time is made a person on Fastify's path, where it counts as a survey write.
      const { countAgainst } = request;
      const body = await identified(state, visitor, countAgainst && (() => countAgainst('surveyWrites')));
      return body ? identifiedAnswer(body) : HAND_OVER;
    },
  });

  routes.add({
    method: 'POST',
    url: '/:environmentId/actions',
    params: environmentParams,
    load: environment,
    body: actionBody,
    handler: async ({ loaded: environment, body }) => {
      const personId = await store.ensurePerson(environment.id, body.userId);
      const automatic = body.name === 'Exit Intent (Desktop)' || body.name === '50% Scroll';
      const actionClassId = await store.clientActionClass(environment.id, body.name, automatic ? 'automatic' : 'code');
      if (actionClassId === undefined)
        throw badRequest(
          `this environment holds ${MAX_CLIENT_ACTION_CLASSES} action classes created by clients already`,
        );
      await store.recordAction(environment.id, personId, actionClassId);
      return { data: {} };
    },
  });

  routes.add({
    method: 'POST',
    url: '/:environmentId/displays',
    params: environmentParams,
    load: environment,
    body: displayCreateBody,
    handler: async ({ loaded: environment, body }) => {
      const survey = await surveyOf(store, environment, body.surveyId);
      const personId = body.userId ? await store.ensurePerson(environment.id, body.userId) : null;
      const flag =
        personId && survey.linkedFlag
          ? await assignmentNow(environment.id, survey.linkedFlag.flagKey, body.userId!, personId)
          : null;
      const id = await store.createDisplay(environment.id, body.surveyId, personId, flag);
      metrics?.surveyDisplays.inc();
      if (body.responseId)
        await store.updateDisplay(id, { responseId: await responseIdOf(store, environment, body.responseId) });
      return { data: { id } };
    },
  });

  routes.add({
    method: 'PUT',
    url: '/:environmentId/displays/:displayId',
    params: displayParams,
    load: async ({ params }) => {
      const environment = await environmentById(store, params.environmentId);
      const display = await store.display(params.displayId);
      if (!display || display.environmentId !== environment.id) throw notFound('Display', params.displayId);
      return environment;
    },
    body: displayUpdateBody,
    handler: async ({ params: { displayId }, loaded: environment, body }) => {
      await store.updateDisplay(displayId, {
        responseId: body.responseId && (await responseIdOf(store, environment, body.responseId)),
        personId: body.userId && (await store.ensurePerson(environment.id, body.userId)),
      });
      return { data: {} };
    },
  });

  routes.add({
    method: 'POST',
    url: '/:environmentId/responses',
    params: environmentParams,
    load: environment,
    body: responseCreateBody,
    handler: async ({ loaded: environment, body }, request) => {
      const survey = SurveyStore.required(await store.survey(body.surveyId), 'Survey', body.surveyId);
      if (survey.environmentId !== environment.id) {
        throw badRequest('Survey is part of another environment', {
          'survey.environmentId': survey.environmentId,
          environmentId: environment.id,
        });
      }
      const personId = body.userId ? await store.ensurePerson(environment.id, body.userId) : null;
      const flag = personId && survey.linkedFlag ? await assignmentShown(survey, body.userId!, personId) : null;
      const id = await store.createResponse({
        environmentId: environment.id,
        surveyId: survey.id,
        personId,
        finished: body.finished,
        data: body.data,
        meta: {
          source: body.meta?.source,
          url: body.meta?.url,
          userAgent: describeUserAgent(request.headers['user-agent'] ?? ''),
        },
        personAttributes: personId ? await store.attributes(personId) : null,
        flag,
      });
      metrics?.surveyResponses.inc();
      if (body.finished) await store.completeIfDue(survey.id);
      await webhooks.responseEvents(
        environment.id,
        survey.id,
        id,
        body.finished ? ['responseCreated', 'responseFinished'] : ['responseCreated'],
      );
      return { data: { id } };
    },
  });

  routes.add({
    method: 'PUT',
    url: '/:environmentId/responses/:responseId',
    params: responseParams,
    load: environment,
    body: responseUpdateBody,
    handler: async ({ params: { responseId }, loaded: environment, body }) => {
      const surveyId = await store.updateResponse(environment.id, responseId, body);
      if (!surveyId) throw notFound('Response', responseId);
      if (body.finished) await store.completeIfDue(surveyId);
      await webhooks.responseEvents(
        environment.id,
        surveyId,
        responseId,
        body.finished ? ['responseUpdated', 'responseFinished'] : ['responseUpdated'],
      );
      return { data: {} };
    },
  });

  routes.add({
    method: 'POST',
    url: '/:environmentId/people',
    params: environmentParams,
    load: environment,
    body: personCreateBody,
    handler: async ({ loaded: environment, body }) => {
      await store.ensurePerson(environment.id, body.userId);
      return { data: { userId: body.userId } };
    },
  });

  routes.add({
    method: 'POST',
    url: '/:environmentId/people/:userId',
    params: syncParams,
    load: environment,
    body: attributesBody,
    handler: async ({ params: { userId }, loaded: environment, body }) => {
      const personId = await store.ensurePerson(environment.id, userId);
      const attributes = Object.fromEntries(
        Object.entries(body.attributes).map(([key, value]) => [key, String(value)]),
      );
      const changed = await store.updateAttributes(personId, attributes);
      return {
        data: changed
          ? { changed: true, message: 'The person was successfully updated.' }
          : { changed: false, message: 'No updates were necessary; the person is already up to date.' },
      };
    },
  });
}

/** The environment named by the route's `environmentId`: 400 when it is not a cuid, 404 when unknown. */
export async function environmentOfRequest(store: SurveyStore, request: FastifyRequest): Promise<TEnvironment> {
  return environmentById(store, parseInput(environmentParams, request.params).environmentId);
}

async function environmentById(store: SurveyStore, environmentId: string): Promise<TEnvironment> {
  return SurveyStore.required(await store.environment(environmentId), 'Environment', environmentId);
}

/** The survey, if it exists in this environment; otherwise the 404 (a survey of another environment is not disclosed). */
export async function surveyOf(store: SurveyStore, environment: TEnvironment, surveyId: string) {
  const survey = await store.survey(surveyId);
  if (!survey || survey.environmentId !== environment.id) throw notFound('Survey', surveyId);
  return survey;
}

async function responseIdOf(store: SurveyStore, environment: TEnvironment, responseId: string): Promise<string> {
  const response = await store.response(responseId);
  if (!response || response.environmentId !== environment.id) throw notFound('Response', responseId);
  return response.id;
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
