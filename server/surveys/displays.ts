import * as v from 'valibot';
import type { Metrics } from '../metrics.js';
import { notFound } from './errors.js';
import type { FlagAssignments } from './flag-assignments.js';
import { environmentById, environmentOfPath, environmentParams, responseIdOf, surveyOf } from './client-environment.js';
import type { SurveyStore } from './store/index.js';
import { route } from '../route-definitions.js';
import { type KnownPerson, personOfUser } from './responses.js';
import type { TSurvey } from '../../domain/surveys/types.js';
import { cuidString, userIdString } from './validation.js';

const displayParams = v.object({ environmentId: cuidString, displayId: cuidString });
const displayCreateBody = v.object({
  surveyId: cuidString,
  userId: v.optional(userIdString),
  responseId: v.optional(cuidString),
});
const displayUpdateBody = v.object({ userId: v.optional(userIdString), responseId: v.optional(cuidString) });

/**
 * Records that a client showed a survey, whichever client generation it is: what the survey's linked flag
 * gives the person now is kept with it. Returns its id.
 */
export async function recordDisplay(
  store: SurveyStore,
  assignments: FlagAssignments,
  metrics: Metrics | undefined,
  survey: TSurvey,
  person: KnownPerson | null,
): Promise<string> {
  const flag =
    person && survey.linkedFlag
      ? await assignments.now(survey.environmentId, survey.linkedFlag.flagKey, person.userId, person.personId)
      : null;
  const id = await store.createDisplay(survey.environmentId, survey.id, person?.personId ?? null, flag);
  metrics?.surveyDisplays.inc();
  return id;
}

/** Formbricks 1.6 client API: the widget records that it showed a survey, and later the response it led to. */
export function displayRoutes(store: SurveyStore, assignments: FlagAssignments, metrics?: Metrics) {
  return [
    route({
      method: 'POST',
      url: '/:environmentId/displays',
      params: environmentParams,
      load: environmentOfPath(store),
      body: displayCreateBody,
      handler: async ({ loaded: environment, body }) => {
        const survey = await surveyOf(store, environment, body.surveyId);
        const person = await personOfUser(store, environment.id, body.userId);
        const id = await recordDisplay(store, assignments, metrics, survey, person);
        if (body.responseId)
          await store.updateDisplay(id, { responseId: await responseIdOf(store, environment, body.responseId) });
        return { data: { id } };
      },
    }),
    route({
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
    }),
  ];
}
