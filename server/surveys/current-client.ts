/**
 * Today's Formbricks client API (docs/compatibility.md, "Today's Formbricks clients"), for the SDKs that
 * carry their own logic (React Native 3.x, iOS and Android 2.x, js-core) and the renderer they load:
 * the environment state, the user state, v2 displays and responses and the display's response. The path's
 * id is the environment's (what those SDKs call a workspace id or a legacy environment id). The 1.6
 * routes' stores and rules do the work: a response from either generation is the same response.
 */
import * as v from 'valibot';
import { HAND_OVER, type ListedRoute, route } from '../route-definitions.js';
import { ENDING_ID } from '../../domain/surveys/current-shape.js';
import type { TEnvironment } from '../../domain/surveys/types.js';
import { environmentOfPath, environmentParams, surveyOf } from './client-environment.js';
import { installedState } from './client.js';
import {
  environmentStateAnswer,
  environmentStateHead,
  keptEnvironmentStateHead,
  USER_STATE_TTL_MS,
  userState,
} from './current-state.js';
import { recordDisplay } from './displays.js';
import { badRequest, notFound } from './errors.js';
import type { Targeting } from './flag-assignments.js';
import { attributesRecord } from './people.js';
import {
  type KnownPerson,
  type ResponseDeps,
  recordResponse,
  responseData,
  surveyForResponse,
  ttc,
} from './responses.js';
import type { SurveyStore } from './store/index.js';
import type { SyncStates } from './sync.js';
import { cuidString, userIdString } from './validation.js';

export interface CurrentClientDeps extends ResponseDeps {
  syncStates: SyncStates;
  targeting: Targeting;
}

/** Attributes are the person's own: a `userId` or `id` among them is not one (Formbricks drops both). */
const withoutIdKeys = (input: unknown) => {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const { userId: _userId, id: _id, ...rest } = input as Record<string, unknown>;
  return rest;
};
const userBody = v.object({
  userId: userIdString,
  attributes: v.optional(v.pipe(v.unknown(), v.transform(withoutIdKeys), attributesRecord)),
});
const displayBody = v.object({ surveyId: cuidString, contactId: v.optional(v.nullable(cuidString), null) });
const responseBody = v.object({
  surveyId: cuidString,
  contactId: v.optional(v.nullable(cuidString), null),
  displayId: v.optional(v.nullable(cuidString), null),
  finished: v.boolean('must be a boolean'),
  data: responseData,
  ttc: v.optional(ttc),
  meta: v.optional(v.object({ source: v.optional(v.string()), url: v.optional(v.string()) })),
});
const displayParams = v.object({ environmentId: cuidString, displayId: cuidString });

/**
 * The attributes to store, as strings: an email must hold an "@" (else 400), a language is kept in its
 * canonical BCP-47 form (one that is none is left out, with a message saying so).
 */
function attributesToStore(given: Record<string, string | number>, messages: string[]): Record<string, string> {
  const attributes = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, String(value)]));
  if (attributes.email !== undefined && !attributes.email.includes('@'))
    throw badRequest('Invalid email address', { 'attributes.email': 'must be an email address' });
  if (attributes.language !== undefined) {
    try {
      [attributes.language] = Intl.getCanonicalLocales(attributes.language);
    } catch {
      messages.push(`language "${attributes.language}" is no BCP-47 language tag: it was not saved`);
      delete attributes.language;
    }
  }
  return attributes;
}

/** The person a `contactId` names, in this environment (404 otherwise); none when no id is given. */
async function contactOf(
  store: SurveyStore,
  environment: TEnvironment,
  contactId: string | null,
): Promise<KnownPerson | null> {
  if (contactId === null) return null;
  const person = await store.person(contactId);
  if (!person || person.environmentId !== environment.id) throw notFound('Contact', contactId);
  return { personId: person.id, userId: person.userId };
}

/** A display of this environment (404 otherwise). */
async function displayOf(store: SurveyStore, environment: TEnvironment, displayId: string) {
  const display = await store.display(displayId);
  if (!display || display.environmentId !== environment.id) throw notFound('Display', displayId);
  return display;
}

/** The SDK generation the console names for clients of today's wire (React Native, iOS, Android). */
const CURRENT = 'current';

/** The routes both `/api/v1/client` and `/api/v2/client` serve: the environment state and the user state. */
function stateRoutes(deps: CurrentClientDeps): ListedRoute[] {
  const { store, syncStates, targeting } = deps;
  return [
    // Answered from memory ahead of Fastify once the environment's state is kept: every app launch asks for it.
    route({
      method: 'GET',
      url: '/:environmentId/environment',
      params: environmentParams,
      hot: true,
      handler: async ({ params: { environmentId } }, request) => {
        if (request.onHotPath) {
          // the generation is recorded for the console on Fastify's path first (client.ts does so for syncs)
          const state = store.sdkGenerationRecorded(environmentId, CURRENT)
            ? syncStates.kept(environmentId)
            : undefined;
          const head = state?.environment.widgetSetupCompleted ? keptEnvironmentStateHead(state) : undefined;
          return head === undefined ? HAND_OVER : environmentStateAnswer(head);
        }
        await store.recordSdkGeneration(environmentId, CURRENT);
        const state = await installedState(store, syncStates, environmentId);
        return environmentStateAnswer(environmentStateHead(state, await store.actionClasses(environmentId)));
      },
    }),
    route({
      method: 'POST',
      url: '/:environmentId/user',
      params: environmentParams,
      load: environmentOfPath(store),
      body: userBody,
      handler: async ({ loaded: environment, body }, request, reply) => {
        const messages: string[] = [];
        const attributes = attributesToStore(body.attributes ?? {}, messages);
        const state = await installedState(store, syncStates, environment.id);
        const personId = await store.ensurePerson(environment.id, body.userId);
        if (Object.keys(attributes).length > 0) await store.updateAttributes(personId, attributes);
        const visitor = (await store.visitor(environment.id, body.userId))!;
        const data = await userState(state, targeting, body.userId, visitor, request.headers['user-agent'] ?? '');
        reply.header('cache-control', 'no-store');
        return {
          data: {
            state: { expiresAt: new Date(Date.now() + USER_STATE_TTL_MS).toISOString(), data },
            ...(messages.length > 0 && { messages }),
          },
        };
      },
    }),
  ];
}

/** `/api/v1/client`: besides the 1.6 routes, the states and a display's response (the renderer's recovery). */
export function currentV1Routes(deps: CurrentClientDeps): ListedRoute[] {
  const { store } = deps;
  return [
    ...stateRoutes(deps),
    route({
      method: 'GET',
      url: '/:environmentId/displays/:displayId/response',
      params: displayParams,
      load: environmentOfPath(store),
      handler: async ({ params: { displayId }, loaded: environment }) => {
        const display = await displayOf(store, environment, displayId);
        return { data: { responseId: display.responseId } };
      },
    }),
  ];
}

/** `/api/v2/client`: the states, and displays and responses of a contact (a person's id) rather than a user id. */
export function currentV2Routes(deps: CurrentClientDeps): ListedRoute[] {
  const { store, assignments, metrics } = deps;
  return [
    ...stateRoutes(deps),
    route({
      method: 'POST',
      url: '/:environmentId/displays',
      params: environmentParams,
      load: environmentOfPath(store),
      body: displayBody,
      handler: async ({ loaded: environment, body }) => {
        const survey = await surveyOf(store, environment, body.surveyId);
        const person = await contactOf(store, environment, body.contactId);
        return { data: { id: await recordDisplay(store, assignments, metrics, survey, person) } };
      },
    }),
    route({
      method: 'POST',
      url: '/:environmentId/responses',
      params: environmentParams,
      load: environmentOfPath(store),
      body: responseBody,
      handler: async ({ loaded: environment, body }, request) => {
        const survey = await surveyForResponse(store, environment, body.surveyId);
        const person = await contactOf(store, environment, body.contactId);
        const display = body.displayId === null ? undefined : await displayOf(store, environment, body.displayId);
        if (display && display.surveyId !== survey.id)
          throw badRequest('The display is of another survey', { displayId: 'must be a display of the survey' });
        // A survey that auto-complete has closed takes no more: the client ends it, as at a full quota.
        const closed = survey.status === 'completed';
        const id = await recordResponse(deps, survey, {
          person,
          finished: body.finished,
          data: body.data,
          meta: body.meta,
          userAgent: request.headers['user-agent'] ?? '',
        });
        if (display) await store.updateDisplay(display.id, { responseId: id });
        if (!closed) return { data: { id, quotaFull: false } };
        const ending = survey.thankYouCard.enabled || survey.redirectUrl ? { endingCardId: ENDING_ID } : {};
        return {
          data: { id, quotaFull: true, quota: { id: `${survey.id}-auto-complete`, action: 'endSurvey', ...ending } },
        };
      },
    }),
  ];
}
