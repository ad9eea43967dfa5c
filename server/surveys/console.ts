import type { FastifyInstance } from 'fastify';
import { RouteTable, addRoutes, route } from '../route-definitions.js';
import * as v from 'valibot';
import { productSettingsSchema } from '../../domain/surveys/schema.js';
import type { AppContext } from '../context.js';
import { FliptError, GrpcCode, invalid, invalidField, notFound } from '../flipt/errors.js';
import { parse } from '../flipt/routes/http.js';
import { actionClassInputSchema, parseSurveyInput } from './documents.js';
import { READ_ONLY_STORAGE, SurveyApiError } from './errors.js';
import type { SurveyStore } from './store/index.js';
import type { ActionClassUsage } from './store/action-classes.js';
import type { FliptStore } from '../flipt/store/index.js';
import type { TSurvey } from '../../domain/surveys/types.js';

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

const namespacePath = v.object({ namespaceKey: v.string() });
const environmentPath = v.object({ ...namespacePath.entries, environmentId: v.string() });
const surveyPath = v.object({ ...environmentPath.entries, surveyId: v.string() });
const apiKeyPath = v.object({ ...environmentPath.entries, keyId: v.string() });
const actionClassPath = v.object({ ...environmentPath.entries, actionClassId: v.string() });

type Located<P extends v.GenericSchema> = { params: v.InferOutput<P> };
/** What the console's survey routes need of Flipt's storage: whether it is read-only, and a namespace's name. */
type FliptSource = Pick<FliptStore, 'readOnly' | 'getNamespace'>;
type ConsoleLoaders = ReturnType<typeof consoleLoaders>;

/**
 * The console's survey API (docs/architecture.md, "Surveys in the console"): a namespace's survey
 * environments, their product settings and management keys, surveys and action classes. The routes sit
 * under `/api/v1/namespaces/:namespaceKey`, so they are guarded as Flipt's management API is (session or
 * token, CSRF, namespace-scoped tokens see their own namespace only), and answer in its shape; read-only
 * storage refuses writes.
 */
export function consoleSurveyRoutes(app: FastifyInstance, store: SurveyStore, context: AppContext): void {
  const load = consoleLoaders(store, context.flipt);
  addRoutes(new RouteTable(app, parse), [
    ...environmentRoutes(store, context.flipt, load),
    ...surveyRoutes(store, load),
    ...actionClassRoutes(store, load),
  ]);
}

/** What the routes act on, loaded before their bodies are checked (a write on read-only storage is refused first). */
function consoleLoaders(store: SurveyStore, flipt: FliptSource) {
  const writable = () => {
    if (flipt.readOnly) throw new FliptError(GrpcCode.PermissionDenied, READ_ONLY_STORAGE);
  };
  const environment = async ({ params }: Located<typeof environmentPath>) => {
    const { namespaceKey, environmentId } = params;
    const found = await store.namespaceEnvironment(namespaceKey, environmentId);
    if (!found) throw notFound(`survey environment "${environmentId}" in namespace "${namespaceKey}"`);
    return found;
  };
  const survey = async ({ params }: Located<typeof surveyPath>) => {
    const { id } = await environment({ params });
    const found = await store.survey(params.surveyId);
    if (!found || found.environmentId !== id) throw notFound(`survey "${params.surveyId}"`);
    return found;
  };
  /** A client-defined action class of the environment, with the surveys it triggers (automatic ones are fixed). */
  const actionClass = async ({ params }: Located<typeof actionClassPath>) => {
    const { id } = await environment({ params });
    const found = (await store.actionClassesWithUsage(id)).find((item) => item.id === params.actionClassId);
    if (!found) throw notFound(`action class "${params.actionClassId}"`);
    if (found.type === 'automatic') throw invalid('the automatic action classes cannot be changed or deleted');
    return found;
  };
  const writing =
    <I, T>(load: (input: I) => Promise<T>) =>
    (input: I) => {
      writable();
      return load(input);
    };
  return {
    writable,
    environment,
    survey,
    actionClass,
    environmentToChange: writing(environment),
    surveyToChange: writing(survey),
    actionClassToChange: writing(actionClass),
  };
}

/** A namespace's survey environments, their product settings and their management API keys. */
function environmentRoutes(store: SurveyStore, flipt: FliptSource, load: ConsoleLoaders) {
  return [
    route({
      method: 'GET',
      url: NAMESPACE,
      params: namespacePath,
      handler: async ({ params }) => ({ environments: await store.namespaceEnvironments(params.namespaceKey) }),
    }),
    route({
      method: 'POST',
      url: NAMESPACE,
      params: namespacePath,
      load: load.writable,
      handler: async ({ params: { namespaceKey }, body }) => {
        // No body is an empty one, which Flipt's parsing of a declared body would refuse.
        const input = parse(createEnvironmentsSchema, body ?? {});
        const namespace = await flipt.getNamespace(namespaceKey);
        if ((await store.namespaceEnvironments(namespaceKey)).length > 0)
          throw new FliptError(GrpcCode.AlreadyExists, `namespace "${namespaceKey}" already has survey environments`);
        const settings = v.parse(productSettingsSchema, {});
        const productName = input.productName ?? namespace.name;
        return { environments: await store.createNamespaceEnvironments(namespaceKey, productName, settings) };
      },
    }),
    route({
      method: 'PUT',
      url: `${ENVIRONMENT}/product`,
      params: environmentPath,
      load: load.environmentToChange,
      body: productSchema,
      handler: async ({ params, loaded, body: { name, ...settings } }) => {
        await store.updateProduct(loaded.productId, name, settings);
        return (await load.environment({ params })).product;
      },
    }),
    route({
      method: 'GET',
      url: `${ENVIRONMENT}/api-keys`,
      params: environmentPath,
      load: load.environment,
      handler: async ({ loaded }) => ({ apiKeys: await store.apiKeys(loaded.id) }),
    }),
    route({
      method: 'POST',
      url: `${ENVIRONMENT}/api-keys`,
      params: environmentPath,
      load: load.environmentToChange,
      body: apiKeySchema,
      handler: async ({ loaded, body }) => store.createApiKey(loaded.id, body.label),
    }),
    route({
      method: 'DELETE',
      url: `${ENVIRONMENT}/api-keys/:keyId`,
      params: apiKeyPath,
      load: load.environmentToChange,
      handler: async ({ loaded, params }) => {
        if (!(await store.deleteApiKey(loaded.id, params.keyId))) throw notFound(`API key "${params.keyId}"`);
        return {};
      },
    }),
  ];
}

/** An environment's surveys, and the namespace's surveys that link a flag. */
function surveyRoutes(store: SurveyStore, load: ConsoleLoaders) {
  return [
    // The flag page's Feedback tab: the namespace's surveys that link this flag, in every environment.
    route({
      method: 'GET',
      url: '/api/v1/namespaces/:namespaceKey/surveys/linked/:flagKey',
      params: v.object({ ...namespacePath.entries, flagKey: v.string() }),
      handler: async ({ params: { namespaceKey, flagKey } }) => {
        const environments = await store.namespaceEnvironments(namespaceKey);
        const linked = await Promise.all(
          environments.map(async (environment) =>
            (await store.surveysWithCounts(environment.id))
              .filter((survey) => survey.linkedFlag?.flagKey === flagKey)
              .map((survey) => ({ environment: { id: environment.id, type: environment.type }, survey })),
          ),
        );
        return { surveys: linked.flat() };
      },
    }),
    route({
      method: 'GET',
      url: `${ENVIRONMENT}/surveys`,
      params: environmentPath,
      load: load.environment,
      handler: async ({ loaded }) => ({ surveys: await store.surveysWithCounts(loaded.id) }),
    }),
    route({
      method: 'POST',
      url: `${ENVIRONMENT}/surveys`,
      params: environmentPath,
      load: load.environmentToChange,
      handler: async ({ loaded, body }) => {
        const { name, document } = surveyInput(body);
        return store.saveSurvey(loaded.id, name, document);
      },
    }),
    route({
      method: 'GET',
      url: `${ENVIRONMENT}/surveys/:surveyId`,
      params: surveyPath,
      load: load.survey,
      handler: async ({ loaded }) => loaded,
    }),
    route({
      method: 'PUT',
      url: `${ENVIRONMENT}/surveys/:surveyId`,
      params: surveyPath,
      load: load.surveyToChange,
      handler: async ({ loaded: current, body }) => {
        const { name, document } = surveyInput(body);
        return store.saveSurvey(current.environmentId, name, document, current.id);
      },
    }),
    route({
      method: 'DELETE',
      url: `${ENVIRONMENT}/surveys/:surveyId`,
      params: surveyPath,
      load: load.surveyToChange,
      handler: async ({ loaded }) => {
        await store.deleteSurvey(loaded.id);
        return {};
      },
    }),
    route({
      method: 'POST',
      url: `${ENVIRONMENT}/surveys/:surveyId/copy`,
      params: surveyPath,
      load: load.surveyToChange,
      body: copySchema,
      handler: async ({ params: { namespaceKey }, loaded: survey, body }) => {
        const target = await store.namespaceEnvironment(namespaceKey, body.environmentId);
        if (!target) throw invalidField('environmentId', `must be a survey environment of namespace "${namespaceKey}"`);
        return copySurvey(store, survey, target.id);
      },
    }),
  ];
}

/** A draft copy of the survey in another environment; the triggers keep their meaning there. */
async function copySurvey(store: SurveyStore, survey: TSurvey, targetId: string) {
  // A missing action class is copied with its type and page rules.
  for (const trigger of survey.triggers) {
    if (await store.actionClassByName(targetId, trigger)) continue;
    const source = await store.actionClassByName(survey.environmentId, trigger);
    if (source) {
      const { name, description, type, noCodeConfig } = source;
      await store.saveActionClass(targetId, parse(actionClassInputSchema, { name, description, type, noCodeConfig }));
    }
  }
  const { id: _id, createdAt: _c, updatedAt: _u, environmentId: _e, ...rest } = survey;
  const { name, document } = surveyInput({ ...rest, status: 'draft' });
  return store.saveSurvey(targetId, name, document);
}

/** An environment's client-defined action classes: what triggers its surveys. */
function actionClassRoutes(store: SurveyStore, load: ConsoleLoaders) {
  const surveyNames = (usage: ActionClassUsage) => usage.surveys.map((s) => `"${s.name}"`).join(', ');
  const nameTaken = (name: string) =>
    new FliptError(GrpcCode.AlreadyExists, `an action class named "${name}" already exists`);
  return [
    route({
      method: 'GET',
      url: `${ENVIRONMENT}/action-classes`,
      params: environmentPath,
      load: load.environment,
      handler: async ({ loaded }) => ({ actionClasses: await store.actionClassesWithUsage(loaded.id) }),
    }),
    route({
      method: 'POST',
      url: `${ENVIRONMENT}/action-classes`,
      params: environmentPath,
      load: load.environmentToChange,
      body: actionClassInputSchema,
      handler: async ({ loaded, body: input }) => {
        if (input.type === 'automatic')
          throw invalidField('type', 'must be code or noCode (the automatic actions exist already)');
        if (await store.actionClassByName(loaded.id, input.name)) throw nameTaken(input.name);
        return store.saveActionClass(loaded.id, input);
      },
    }),
    route({
      method: 'PUT',
      url: `${ENVIRONMENT}/action-classes/:actionClassId`,
      params: actionClassPath,
      load: load.actionClassToChange,
      body: actionClassInputSchema,
      handler: async ({ loaded: current, body: input }) => {
        if (input.type === 'automatic') throw invalidField('type', 'must be code or noCode');
        // Surveys name their triggers: a class they use keeps its name.
        if (input.name !== current.name) {
          if (current.surveys.length > 0)
            throw invalidField('name', `cannot change while ${surveyNames(current)} use it as a trigger`);
          if (await store.actionClassByName(current.environmentId, input.name)) throw nameTaken(input.name);
        }
        return store.updateActionClass(current.id, input);
      },
    }),
    route({
      method: 'DELETE',
      url: `${ENVIRONMENT}/action-classes/:actionClassId`,
      params: actionClassPath,
      load: load.actionClassToChange,
      handler: async ({ loaded: current }) => {
        if (current.surveys.length > 0)
          throw invalid(`action class "${current.name}" triggers ${surveyNames(current)}; remove it from them first`);
        await store.deleteActionClass(current.id);
        return {};
      },
    }),
  ];
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
