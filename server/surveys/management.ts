import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TEnvironment } from '../../domain/surveys/types.js';
import * as v from 'valibot';
import { DEMO_API_KEY } from './demo.js';
import { SurveyApiError, notFound } from './errors.js';
import { actionClassInputSchema, parseSurveyInput } from './documents.js';
import type { SurveyStore } from './store/index.js';
import { parseInput, plainObject } from './validation.js';
import type { Database } from '../db/index.js';
import { listResponses } from './results.js';
import { filterOf, pageOf } from './results-routes.js';
import { deleteWebhook, saveWebhook, webhook, webhooks } from './store/webhooks.js';
import { webhookInputSchema } from './webhooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    surveyEnvironment?: TEnvironment;
  }
}

/**
 * The Formbricks management API subset under /api/v1/management, scoped to the environment of the
 * `x-api-key`: me, surveys, action classes, responses, people and webhooks, plus (an Ensign addition) displays.
 */
export function managementRoutes(
  app: FastifyInstance,
  store: SurveyStore,
  database: Database,
  authenticationRequired: boolean,
): void {
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
  });
  const environmentOf = (request: FastifyRequest) => request.surveyEnvironment!;
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  const owned = <T extends { environmentId: string }>(
    value: T | undefined,
    request: FastifyRequest,
    type: string,
  ): T => {
    if (!value || value.environmentId !== environmentOf(request).id) throw notFound(type, idOf(request));
    return value;
  };

  app.get('/me', async (request) => {
    const environment = environmentOf(request);
    const product = await store.product(environment);
    return { data: { ...environment, product: { id: product.id, name: product.name } } };
  });

  app.get('/surveys', async (request) => ({ data: await store.surveys(environmentOf(request).id) }));
  app.post('/surveys', async (request) => {
    const { name, document } = parseSurveyInput(request.body);
    return { data: await store.saveSurvey(environmentOf(request).id, name, document) };
  });
  app.get('/surveys/:id', async (request) => ({ data: owned(await store.survey(idOf(request)), request, 'Survey') }));
  app.put('/surveys/:id', async (request) => {
    const current = owned(await store.survey(idOf(request)), request, 'Survey');
    const changes = parseInput(
      plainObject(v.record(v.string(), v.unknown()), 'must be an object of the keys to change'),
      request.body,
    );
    const { name, document } = parseSurveyInput({ ...current, ...changes });
    return { data: await store.saveSurvey(current.environmentId, name, document, current.id) };
  });
  app.delete('/surveys/:id', async (request) => {
    const survey = owned(await store.survey(idOf(request)), request, 'Survey');
    await store.deleteSurvey(survey.id);
    return { data: survey };
  });

  // Listings are paged as Formbricks v1 (`limit`, `skip`), with a default and a maximum page size.
  app.get('/action-classes', async (request) => ({
    data: await store.actionClasses(environmentOf(request).id, pageOf(request.query)),
  }));
  app.post('/action-classes', async (request) => {
    const input = parseInput(actionClassInputSchema, request.body);
    const environmentId = environmentOf(request).id;
    if (await store.actionClassByName(environmentId, input.name)) {
      throw new SurveyApiError(400, 'bad_request', `An action class named "${input.name}" already exists`, {
        name: 'must be unique in the environment',
      });
    }
    return { data: await store.saveActionClass(environmentId, input) };
  });
  app.get('/action-classes/:id', async (request) => ({
    data: owned(await store.actionClass(idOf(request)), request, 'ActionClass'),
  }));
  app.delete('/action-classes/:id', async (request) => {
    const actionClass = owned(await store.actionClass(idOf(request)), request, 'ActionClass');
    await store.deleteActionClass(actionClass.id);
    return { data: actionClass };
  });

  // Paged as Formbricks v1 (`limit`, `skip`), newest first, with the console's filter (`filter`, JSON).
  app.get('/responses', async (request) => {
    const { surveyId } = request.query as { surveyId?: string };
    const environmentId = environmentOf(request).id;
    const survey = surveyId ? await store.survey(surveyId) : undefined;
    if (surveyId && survey?.environmentId !== environmentId) throw notFound('Survey', surveyId);
    const filter = filterOf(request.query, survey);
    const { data } = await listResponses(
      database,
      survey ? { surveyId: survey.id } : { environmentId },
      filter,
      pageOf(request.query),
    );
    return { data };
  });
  app.get('/responses/:id', async (request) => ({
    data: owned(await store.response(idOf(request)), request, 'Response'),
  }));
  app.delete('/responses/:id', async (request) => {
    const response = owned(await store.response(idOf(request)), request, 'Response');
    await store.deleteResponse(response.id);
    return { data: response };
  });

  app.get('/webhooks', async (request) => ({ data: await webhooks(database, environmentOf(request).id) }));
  app.post('/webhooks', async (request) => {
    const input = parseInput(webhookInputSchema, request.body);
    return {
      data: await saveWebhook(database, environmentOf(request).id, { ...input, source: input.source ?? 'api' }),
    };
  });
  app.get('/webhooks/:id', async (request) => ({
    data: owned(await webhook(database, idOf(request)), request, 'Webhook'),
  }));
  app.delete('/webhooks/:id', async (request) => {
    const hook = owned(await webhook(database, idOf(request)), request, 'Webhook');
    await deleteWebhook(database, hook.id);
    return { data: hook };
  });

  app.get('/displays', async (request) => {
    const { surveyId } = request.query as { surveyId?: string };
    return { data: await store.displays(environmentOf(request).id, surveyId || undefined, pageOf(request.query)) };
  });

  app.get('/people', async (request) => ({
    data: await store.people(environmentOf(request).id, pageOf(request.query)),
  }));
  app.get('/people/:id', async (request) => ({ data: owned(await store.person(idOf(request)), request, 'Person') }));
  app.delete('/people/:id', async (request) => {
    const person = owned(await store.person(idOf(request)), request, 'Person');
    await store.deletePerson(person.id);
    return { data: person };
  });
}
