import type { FastifyRequest } from 'fastify';
import type { TEnvironment } from '../../domain/surveys/types.js';
import * as v from 'valibot';
import { DEMO_API_KEY } from './demo.js';
import { SurveyApiError, isWrite, notFound, readOnlyStorage } from './errors.js';
import { actionClassInputSchema, parseSurveyInput } from './documents.js';
import type { SurveyStore } from './store/index.js';
import { plainObject } from './validation.js';
import type { RouteTable } from '../route-definitions.js';
import type { Database } from '../db/index.js';
import { listResponses } from './results.js';
import { filterOf, pageOf, pageQuery } from './results-routes.js';
import { deleteWebhook, webhook, webhooks } from './store/webhooks.js';
import { saveCheckedWebhook, webhookInputSchema } from './webhooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    surveyEnvironment?: TEnvironment;
  }
}

/**
 * The Formbricks management API subset under /api/v1/management, scoped to the environment of the
 * `x-api-key`: me, surveys, action classes, responses, people and webhooks, plus (an Ensign addition) displays.
 */
/** A resource of the management API, by its id in the path. */
const idParams = v.object({ id: v.string() });
/** The listings' filter: a survey (absent or empty: every survey), with the page and, for responses, the filter. */
const surveyQuery = v.looseObject({ surveyId: v.optional(v.string()) });

export function managementRoutes(
  routes: RouteTable,
  store: SurveyStore,
  database: Database,
  {
    authenticationRequired,
    allowInternalWebhookAddresses,
    readOnly,
  }: {
    /** The demo environment's well-known key opens nothing on a server that requires authentication. */
    authenticationRequired: boolean;
    allowInternalWebhookAddresses: boolean;
    /** Read-only storage: every write is refused. */
    readOnly: boolean;
  },
): void {
  const { app } = routes;
  app.decorateRequest('surveyEnvironment', undefined);
  app.addHook('preHandler', async (request) => {
    const key = request.headers['x-api-key'];
    // A key everyone knows (the demo environment's) opens nothing on a server that requires authentication.
    const known = key === DEMO_API_KEY && authenticationRequired;
    const environment =
      typeof key === 'string' && key !== '' && !known ? await store.environmentForApiKey(key) : undefined;
    if (!environment) {
      throw new SurveyApiError(401, 'not_authenticated', 'Not authenticated', {
        'x-Api-Key': 'Header not provided or API Key invalid',
      });
    }
    request.surveyEnvironment = environment;
    if (readOnly && isWrite(request.method)) throw readOnlyStorage();
  });
  const environmentOf = (request: FastifyRequest) => request.surveyEnvironment!;
  /** The resource of the path's id, when the caller's environment holds it; otherwise the 404. */
  const owned =
    <T extends { environmentId: string }>(type: string, find: (id: string) => Promise<T | undefined>) =>
    async ({ params }: { params: { id: string } }, request: FastifyRequest): Promise<T> => {
      const value = await find(params.id);
      if (!value || value.environmentId !== environmentOf(request).id) throw notFound(type, params.id);
      return value;
    };
  const survey = owned('Survey', (id) => store.survey(id));
  const actionClass = owned('ActionClass', (id) => store.actionClass(id));
  const response = owned('Response', (id) => store.response(id));
  const hook = owned('Webhook', (id) => webhook(database, id));
  const person = owned('Person', (id) => store.person(id));

  routes.add({
    method: 'GET',
    url: '/me',
    handler: async (_input, request) => {
      const environment = environmentOf(request);
      const product = await store.product(environment);
      return { data: { ...environment, product: { id: product.id, name: product.name } } };
    },
  });

  routes.add({
    method: 'GET',
    url: '/surveys',
    handler: async (_input, request) => ({ data: await store.surveys(environmentOf(request).id) }),
  });
  routes.add({
    method: 'POST',
    url: '/surveys',
    handler: async ({ body }, request) => {
      const { name, document } = parseSurveyInput(body);
      return { data: await store.saveSurvey(environmentOf(request).id, name, document) };
    },
  });
  routes.add({
    method: 'GET',
    url: '/surveys/:id',
    params: idParams,
    load: survey,
    handler: async ({ loaded }) => ({ data: loaded }),
  });
  routes.add({
    method: 'PUT',
    url: '/surveys/:id',
    params: idParams,
    load: survey,
    body: plainObject(v.record(v.string(), v.unknown()), 'must be an object of the keys to change'),
    handler: async ({ loaded: current, body: changes }) => {
      const { name, document } = parseSurveyInput({ ...current, ...changes });
      return { data: await store.saveSurvey(current.environmentId, name, document, current.id) };
    },
  });
  routes.add({
    method: 'DELETE',
    url: '/surveys/:id',
    params: idParams,
    load: survey,
    handler: async ({ loaded }) => {
      await store.deleteSurvey(loaded.id);
      return { data: loaded };
    },
  });

  // Listings are paged as Formbricks v1 (`limit`, `skip`), with a default and a maximum page size.
  routes.add({
    method: 'GET',
    url: '/action-classes',
    query: pageQuery,
    handler: async ({ query }, request) => ({ data: await store.actionClasses(environmentOf(request).id, query) }),
  });
  routes.add({
    method: 'POST',
    url: '/action-classes',
    body: actionClassInputSchema,
    handler: async ({ body: input }, request) => {
      const environmentId = environmentOf(request).id;
      if (await store.actionClassByName(environmentId, input.name)) {
        throw new SurveyApiError(400, 'bad_request', `An action class named "${input.name}" already exists`, {
          name: 'must be unique in the environment',
        });
      }
      return { data: await store.saveActionClass(environmentId, input) };
    },
  });
  routes.add({
    method: 'GET',
    url: '/action-classes/:id',
    params: idParams,
    load: actionClass,
    handler: async ({ loaded }) => ({ data: loaded }),
  });
  routes.add({
    method: 'DELETE',
    url: '/action-classes/:id',
    params: idParams,
    load: actionClass,
    handler: async ({ loaded }) => {
      await store.deleteActionClass(loaded.id);
      return { data: loaded };
    },
  });

  // Paged as Formbricks v1 (`limit`, `skip`), newest first, with the console's filter (`filter`, JSON).
  routes.add({
    method: 'GET',
    url: '/responses',
    query: surveyQuery,
    handler: async ({ query }, request) => {
      const { surveyId } = query;
      const environmentId = environmentOf(request).id;
      const survey = surveyId ? await store.survey(surveyId) : undefined;
      if (surveyId && survey?.environmentId !== environmentId) throw notFound('Survey', surveyId);
      // Checked once the survey is known: the filter names its questions.
      const filter = filterOf(query, survey);
      const { data } = await listResponses(
        database,
        survey ? { surveyId: survey.id } : { environmentId },
        filter,
        pageOf(query),
      );
      return { data };
    },
  });
  routes.add({
    method: 'GET',
    url: '/responses/:id',
    params: idParams,
    load: response,
    handler: async ({ loaded }) => ({ data: loaded }),
  });
  routes.add({
    method: 'DELETE',
    url: '/responses/:id',
    params: idParams,
    load: response,
    handler: async ({ loaded }) => {
      await store.deleteResponse(loaded.id);
      return { data: loaded };
    },
  });

  routes.add({
    method: 'GET',
    url: '/webhooks',
    handler: async (_input, request) => ({ data: await webhooks(database, environmentOf(request).id) }),
  });
  routes.add({
    method: 'POST',
    url: '/webhooks',
    body: webhookInputSchema,
    handler: async ({ body: input }, request) => ({
      data: await saveCheckedWebhook(
        database,
        environmentOf(request).id,
        { ...input, source: input.source ?? 'api' },
        allowInternalWebhookAddresses,
      ),
    }),
  });
  routes.add({
    method: 'GET',
    url: '/webhooks/:id',
    params: idParams,
    load: hook,
    handler: async ({ loaded }) => ({ data: loaded }),
  });
  routes.add({
    method: 'DELETE',
    url: '/webhooks/:id',
    params: idParams,
    load: hook,
    handler: async ({ loaded }) => {
      await deleteWebhook(database, loaded.id);
      return { data: loaded };
    },
  });

  routes.add({
    method: 'GET',
    url: '/displays',
    query: surveyQuery,
    handler: async ({ query }, request) => ({
      data: await store.displays(environmentOf(request).id, query.surveyId || undefined, pageOf(query)),
    }),
  });

  routes.add({
    method: 'GET',
    url: '/people',
    query: pageQuery,
    handler: async ({ query }, request) => ({ data: await store.people(environmentOf(request).id, query) }),
  });
  routes.add({
    method: 'GET',
    url: '/people/:id',
    params: idParams,
    load: person,
    handler: async ({ loaded }) => ({ data: loaded }),
  });
  routes.add({
    method: 'DELETE',
    url: '/people/:id',
    params: idParams,
    load: person,
    handler: async ({ loaded }) => {
      await store.deletePerson(loaded.id);
      return { data: loaded };
    },
  });
}
