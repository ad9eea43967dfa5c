import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TEnvironment } from '../../domain/surveys/types.js';
import * as v from 'valibot';
import { DEMO_API_KEY } from './demo.js';
import { SurveyApiError, isWrite, notFound, readOnlyStorage } from './errors.js';
import { actionClassInputSchema, parseSurveyInput } from './documents.js';
import type { SurveyStore } from './store/index.js';
import { plainObject } from './validation.js';
import { route } from '../route-definitions.js';
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

/** A resource of the management API, by its id in the path. */
const idParams = v.object({ id: v.string() });
/** The listings' filter: a survey (absent or empty: every survey), with the page and, for responses, the filter. */
const surveyQuery = v.looseObject({ surveyId: v.optional(v.string()) });
const surveyChanges = plainObject(v.record(v.string(), v.unknown()), 'must be an object of the keys to change');

export interface ApiKeyOptions {
  /** The demo environment's well-known key opens nothing on a server that requires authentication. */
  authenticationRequired: boolean;
  /** Read-only storage: every write is refused. */
  readOnly: boolean;
}

/**
 * The Formbricks management API subset under /api/v1/management is scoped to the environment of the
 * `x-api-key`: every route of the scope answers 401 without a valid key, and 403 to a write on read-only storage.
 */
export function requireApiKey(scope: FastifyInstance, store: SurveyStore, options: ApiKeyOptions): void {
  scope.decorateRequest('surveyEnvironment', undefined);
  scope.addHook('preHandler', async (request) => {
    const key = request.headers['x-api-key'];
    // A key everyone knows (the demo environment's) opens nothing on a server that requires authentication.
    const known = key === DEMO_API_KEY && options.authenticationRequired;
    const environment =
      typeof key === 'string' && key !== '' && !known ? await store.environmentForApiKey(key) : undefined;
    if (!environment) {
      throw new SurveyApiError(401, 'not_authenticated', 'Not authenticated', {
        'x-Api-Key': 'Header not provided or API Key invalid',
      });
    }
    request.surveyEnvironment = environment;
    if (options.readOnly && isWrite(request.method)) throw readOnlyStorage();
  });
}

/** The environment of the request's API key (`requireApiKey` found it before any handler runs). */
const environmentOf = (request: FastifyRequest) => request.surveyEnvironment!;

/** Loads the resource of the path's id, when the caller's environment holds it; otherwise the 404. */
const owned =
  <T extends { environmentId: string }>(type: string, find: (id: string) => Promise<T | undefined>) =>
  async ({ params }: { params: { id: string } }, request: FastifyRequest): Promise<T> => {
    const value = await find(params.id);
    if (!value || value.environmentId !== environmentOf(request).id) throw notFound(type, params.id);
    return value;
  };

/** GET and DELETE of one resource by id: the DELETE answers with what it deleted. */
function readAndDelete<T extends { id: string; environmentId: string }>(
  url: string,
  load: ReturnType<typeof owned<T>>,
  remove: (id: string) => Promise<unknown>,
) {
  return [
    route({ method: 'GET', url, params: idParams, load, handler: async ({ loaded }) => ({ data: loaded }) }),
    route({
      method: 'DELETE',
      url,
      params: idParams,
      load,
      handler: async ({ loaded }) => {
        await remove(loaded.id);
        return { data: loaded };
      },
    }),
  ];
}

/** `/me` and the environment's surveys. */
export function managementSurveyRoutes(store: SurveyStore) {
  const survey = owned('Survey', (id) => store.survey(id));
  return [
    route({
      method: 'GET',
      url: '/me',
      handler: async (_input, request) => {
        const environment = environmentOf(request);
        const product = await store.product(environment);
        return { data: { ...environment, product: { id: product.id, name: product.name } } };
      },
    }),
    route({
      method: 'GET',
      url: '/surveys',
      handler: async (_input, request) => ({ data: await store.surveys(environmentOf(request).id) }),
    }),
    route({
      method: 'POST',
      url: '/surveys',
      handler: async ({ body }, request) => {
        const { name, document } = parseSurveyInput(body);
        return { data: await store.saveSurvey(environmentOf(request).id, name, document) };
      },
    }),
    route({
      method: 'PUT',
      url: '/surveys/:id',
      params: idParams,
      load: survey,
      body: surveyChanges,
      handler: async ({ loaded: current, body: changes }) => {
        const { name, document } = parseSurveyInput({ ...current, ...changes });
        return { data: await store.saveSurvey(current.environmentId, name, document, current.id) };
      },
    }),
    ...readAndDelete('/surveys/:id', survey, (id) => store.deleteSurvey(id)),
  ];
}

/** The environment's action classes; listings are paged as Formbricks v1 (`limit`, `skip`). */
export function managementActionClassRoutes(store: SurveyStore) {
  const actionClass = owned('ActionClass', (id) => store.actionClass(id));
  return [
    route({
      method: 'GET',
      url: '/action-classes',
      query: pageQuery,
      handler: async ({ query }, request) => ({ data: await store.actionClasses(environmentOf(request).id, query) }),
    }),
    route({
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
    }),
    ...readAndDelete('/action-classes/:id', actionClass, (id) => store.deleteActionClass(id)),
  ];
}

/**
 * The environment's responses, displays and people. Responses are paged as Formbricks v1 (`limit`, `skip`),
 * newest first, with the console's filter (`filter`, JSON).
 */
export function managementResponseRoutes(store: SurveyStore, database: Database) {
  return [
    route({
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
        const scope = survey ? { surveyId: survey.id } : { environmentId };
        const { data } = await listResponses(database, scope, filter, pageOf(query));
        return { data };
      },
    }),
    ...readAndDelete(
      '/responses/:id',
      owned('Response', (id) => store.response(id)),
      (id) => store.deleteResponse(id),
    ),
    route({
      method: 'GET',
      url: '/displays',
      query: surveyQuery,
      handler: async ({ query }, request) => ({
        data: await store.displays(environmentOf(request).id, query.surveyId || undefined, pageOf(query)),
      }),
    }),
    route({
      method: 'GET',
      url: '/people',
      query: pageQuery,
      handler: async ({ query }, request) => ({ data: await store.people(environmentOf(request).id, query) }),
    }),
    ...readAndDelete(
      '/people/:id',
      owned('Person', (id) => store.person(id)),
      (id) => store.deletePerson(id),
    ),
  ];
}

/** The environment's webhooks; those created here are marked as the API's. */
export function managementWebhookRoutes(database: Database, allowInternalWebhookAddresses: boolean) {
  return [
    route({
      method: 'GET',
      url: '/webhooks',
      handler: async (_input, request) => ({ data: await webhooks(database, environmentOf(request).id) }),
    }),
    route({
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
    }),
    ...readAndDelete(
      '/webhooks/:id',
      owned('Webhook', (id) => webhook(database, id)),
      (id) => deleteWebhook(database, id),
    ),
  ];
}
