import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { productSettingsSchema } from '../../domain/surveys/schema.js';
import type { AppContext } from '../context.js';
import { FliptError, GrpcCode, invalid, invalidField, notFound, readOnly } from '../flipt/errors.js';
import { parse } from '../flipt/routes/http.js';
import { actionClassInputSchema, parseSurveyInput } from './documents.js';
import { SurveyApiError } from './errors.js';
import type { SurveyStore } from './store/index.js';
import type { ActionClassUsage } from './store/action-classes.js';

interface Params {
  namespaceKey: string;
  environmentId: string;
  surveyId: string;
  keyId: string;
  actionClassId: string;
}

const NAMESPACE = '/api/v1/namespaces/:namespaceKey/surveys/environments';
/** A namespace's survey environment: the console's survey routes (results' too) sit under it. */
export const ENVIRONMENT = `${NAMESPACE}/:environmentId`;

const createEnvironmentsSchema = v.strictObject({
  productName: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'))),
});
const productSchema = v.strictObject({
  name: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255)),
  ...productSettingsSchema.entries,
});
const apiKeySchema = v.strictObject({
  label: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255)),
});
const copySchema = v.strictObject({ environmentId: v.pipe(v.string('must be a string'), v.minLength(1)) });

/**
 * The console's survey API (docs/architecture.md, "Surveys in the console"): a namespace's survey
 * environments, their product settings and management keys, surveys and action classes. The routes sit
 * under `/api/v1/namespaces/:namespaceKey`, so they are guarded as Flipt's management API is (session or
 * token, CSRF, namespace-scoped tokens see their own namespace only); read-only storage refuses writes.
 */
export function consoleSurveyRoutes(app: FastifyInstance, store: SurveyStore, context: AppContext): void {
  const params = (request: FastifyRequest) => request.params as Params;
  const writable = () => {
    if (context.flipt.readOnly) throw readOnly();
  };
  const environmentOf = async (request: FastifyRequest) => {
    const { namespaceKey, environmentId } = params(request);
    const environment = await store.namespaceEnvironment(namespaceKey, environmentId);
    if (!environment) throw notFound(`survey environment "${environmentId}" in namespace "${namespaceKey}"`);
    return environment;
  };
  const surveyOf = async (request: FastifyRequest) => {
    const environment = await environmentOf(request);
    const survey = await store.survey(params(request).surveyId);
    if (!survey || survey.environmentId !== environment.id) throw notFound(`survey "${params(request).surveyId}"`);
    return survey;
  };
  /** A client-defined action class of the environment, with the surveys it triggers (automatic ones are fixed). */
  const usageOf = async (environmentId: string, actionClassId: string) => {
    const actionClass = (await store.actionClassesWithUsage(environmentId)).find((item) => item.id === actionClassId);
    if (!actionClass) throw notFound(`action class "${actionClassId}"`);
    if (actionClass.type === 'automatic') throw invalid('the automatic action classes cannot be changed or deleted');
    return actionClass;
  };
  const surveyNames = (actionClass: ActionClassUsage) => actionClass.surveys.map((s) => `"${s.name}"`).join(', ');

  app.get(NAMESPACE, async (request) => ({
    environments: await store.namespaceEnvironments(params(request).namespaceKey),
  }));
  app.post(NAMESPACE, async (request) => {
    writable();
    const { namespaceKey } = params(request);
    const input = parse(createEnvironmentsSchema, request.body ?? {});
    const namespace = await context.flipt.getNamespace(namespaceKey);
    if ((await store.namespaceEnvironments(namespaceKey)).length > 0)
      throw new FliptError(GrpcCode.AlreadyExists, `namespace "${namespaceKey}" already has survey environments`);
    const settings = v.parse(productSettingsSchema, {});
    return {
      environments: await store.createNamespaceEnvironments(
        namespaceKey,
        input.productName ?? namespace.name,
        settings,
      ),
    };
  });
  app.put(`${ENVIRONMENT}/product`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    const { name, ...settings } = parse(productSchema, request.body);
    await store.updateProduct(environment.productId, name, settings);
    return (await environmentOf(request)).product;
  });

  app.get(`${ENVIRONMENT}/api-keys`, async (request) => ({
    apiKeys: await store.apiKeys((await environmentOf(request)).id),
  }));
  app.post(`${ENVIRONMENT}/api-keys`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    const { label } = parse(apiKeySchema, request.body);
    return store.createApiKey(environment.id, label);
  });
  app.delete(`${ENVIRONMENT}/api-keys/:keyId`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    if (!(await store.deleteApiKey(environment.id, params(request).keyId)))
      throw notFound(`API key "${params(request).keyId}"`);
    return {};
  });

  // The flag page's Feedback tab: the namespace's surveys that link this flag, in every environment.
  app.get('/api/v1/namespaces/:namespaceKey/surveys/linked/:flagKey', async (request) => {
    const { namespaceKey, flagKey } = request.params as { namespaceKey: string; flagKey: string };
    const environments = await store.namespaceEnvironments(namespaceKey);
    const linked = await Promise.all(
      environments.map(async (environment) =>
        (await store.surveysWithCounts(environment.id))
          .filter((survey) => survey.linkedFlag?.flagKey === flagKey)
          .map((survey) => ({ environment: { id: environment.id, type: environment.type }, survey })),
      ),
    );
    return { surveys: linked.flat() };
  });

  app.get(`${ENVIRONMENT}/surveys`, async (request) => ({
    surveys: await store.surveysWithCounts((await environmentOf(request)).id),
  }));
  app.post(`${ENVIRONMENT}/surveys`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    const { name, document } = surveyInput(request.body);
    return store.saveSurvey(environment.id, name, document);
  });
  app.get(`${ENVIRONMENT}/surveys/:surveyId`, surveyOf);
  app.put(`${ENVIRONMENT}/surveys/:surveyId`, async (request) => {
    writable();
    const current = await surveyOf(request);
    const { name, document } = surveyInput(request.body);
    return store.saveSurvey(current.environmentId, name, document, current.id);
  });
  app.delete(`${ENVIRONMENT}/surveys/:surveyId`, async (request) => {
    writable();
    await store.deleteSurvey((await surveyOf(request)).id);
    return {};
  });
  app.post(`${ENVIRONMENT}/surveys/:surveyId/copy`, async (request) => {
    writable();
    const survey = await surveyOf(request);
    const { environmentId } = parse(copySchema, request.body);
    const target = await store.namespaceEnvironment(params(request).namespaceKey, environmentId);
    if (!target)
      throw invalidField(
        'environmentId',
        `must be a survey environment of namespace "${params(request).namespaceKey}"`,
      );
    // The triggers keep their meaning: a missing action class is copied with its type and page rules.
    for (const trigger of survey.triggers) {
      if (await store.actionClassByName(target.id, trigger)) continue;
      const source = await store.actionClassByName(survey.environmentId, trigger);
      if (source) {
        const { name, description, type, noCodeConfig } = source;
        await store.saveActionClass(
          target.id,
          parse(actionClassInputSchema, { name, description, type, noCodeConfig }),
        );
      }
    }
    const { id: _id, createdAt: _c, updatedAt: _u, environmentId: _e, ...rest } = survey;
    const { name, document } = surveyInput({ ...rest, status: 'draft' });
    return store.saveSurvey(target.id, name, document);
  });

  app.get(`${ENVIRONMENT}/action-classes`, async (request) => ({
    actionClasses: await store.actionClassesWithUsage((await environmentOf(request)).id),
  }));
  app.post(`${ENVIRONMENT}/action-classes`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    const input = parse(actionClassInputSchema, request.body);
    if (input.type === 'automatic')
      throw invalidField('type', 'must be code or noCode (the automatic actions exist already)');
    if (await store.actionClassByName(environment.id, input.name))
      throw new FliptError(GrpcCode.AlreadyExists, `an action class named "${input.name}" already exists`);
    return store.saveActionClass(environment.id, input);
  });
  app.put(`${ENVIRONMENT}/action-classes/:actionClassId`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    const actionClass = await usageOf(environment.id, params(request).actionClassId);
    const input = parse(actionClassInputSchema, request.body);
    if (input.type === 'automatic') throw invalidField('type', 'must be code or noCode');
    // Surveys name their triggers: a class they use keeps its name.
    if (input.name !== actionClass.name) {
      if (actionClass.surveys.length > 0)
        throw invalidField('name', `cannot change while ${surveyNames(actionClass)} use it as a trigger`);
      if (await store.actionClassByName(environment.id, input.name))
        throw new FliptError(GrpcCode.AlreadyExists, `an action class named "${input.name}" already exists`);
    }
    return store.updateActionClass(actionClass.id, input);
  });
  app.delete(`${ENVIRONMENT}/action-classes/:actionClassId`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    const actionClass = await usageOf(environment.id, params(request).actionClassId);
    if (actionClass.surveys.length > 0)
      throw invalid(
        `action class "${actionClass.name}" triggers ${surveyNames(actionClass)}; remove it from them first`,
      );
    await store.deleteActionClass(actionClass.id);
    return {};
  });
}

/** A survey checked by the shared schema; a problem is Flipt's 400 naming the field. */
function surveyInput(body: unknown) {
  return validated(() => parseSurveyInput(body));
}

function validated<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof SurveyApiError) {
      const [path, message] = Object.entries(error.details)[0] ?? ['body', error.message];
      throw invalidField(path, String(message));
    }
    throw error;
  }
}
