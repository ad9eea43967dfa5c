import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { AuthMetadata } from '../../domain/flipt/auth.js';
import {
  questionFilterErrors,
  type ResponseFilter,
  responseFilterSchema,
} from '../../domain/surveys/response-filter.js';
import type { TSurvey } from '../../domain/surveys/types.js';
import type { AppContext } from '../context.js';
import { SurveyApiError, answerSurveyError, badRequest, notFound, readOnlyStorage } from './errors.js';
import { resultsByVariant } from './by-variant.js';
import { decodeCursor, exportCsv, listResponses, summarize, trends } from './results.js';
import * as annotations from './store/annotations.js';
import * as webhooksStore from './store/webhooks.js';
import { saveCheckedWebhook, webhookInputSchema } from './webhooks.js';
import { ENVIRONMENT } from './console.js';
import { SurveyStore } from './store/index.js';
import { attributeKeys, type Cursor } from './store/results.js';
import { parseInput } from './validation.js';
import { RouteTable, addRoutes, route } from '../route-definitions.js';
import type { Database } from '../db/index.js';

/** Page sizes of the response lists: the console's and the management API's (`limit`). */
export const PAGE_SIZE = { default: 25, max: 500 } as const;

/**
 * The `filter` query parameter (the response filter as JSON), checked against the survey's questions
 * when there is one; a bad filter is a 400 naming its field.
 */
export function filterOf(query: unknown, survey?: TSurvey): ResponseFilter {
  const text = (query as { filter?: unknown }).filter;
  if (text === undefined || text === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(String(text));
  } catch {
    throw badRequest('filter: must be a JSON object', { filter: 'must be a JSON object' });
  }
  const result = v.safeParse(responseFilterSchema, json);
  if (!result.success) {
    const issue = result.issues[0];
    const path = ['filter', ...(issue.path ?? []).map((item) => String(item.key))].join('.');
    throw badRequest(`${path}: ${issue.message}`, { [path]: issue.message });
  }
  const filter = result.output as ResponseFilter;
  if (survey) {
    const errors = questionFilterErrors(survey, filter);
    const [path, message] = Object.entries(errors)[0] ?? [];
    if (path) throw badRequest(`filter.${path}: ${message}`, { [`filter.${path}`]: message });
  } else if (filter.data && Object.keys(filter.data).length > 0) {
    throw badRequest('surveyId: is required with filter.data', { surveyId: 'is required with filter.data' });
  }
  return filter;
}

const count = (name: string, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, `${name} must be a whole number`),
      v.transform(Number),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
  );

/** `limit` (1 to the maximum, the default otherwise) and `skip` (offset) of a management listing. */
export const pageQuery = v.pipe(
  v.object({
    limit: v.optional(
      v.pipe(
        count('limit', PAGE_SIZE.max),
        v.check((n) => n === undefined || n >= 1, 'limit must be at least 1'),
      ),
    ),
    skip: count('skip', Number.MAX_SAFE_INTEGER),
  }),
  v.transform(({ limit, skip }) => ({ limit: limit ?? PAGE_SIZE.default, skip: skip ?? 0 })),
);

export function pageOf(query: unknown): { limit: number; skip: number } {
  return parseInput(pageQuery, query);
}

function pick(query: unknown, keys: string[]): Record<string, unknown> {
  const source = (query ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

function cursorOf(query: unknown): Cursor | undefined {
  const text = (query as { cursor?: unknown }).cursor;
  if (text === undefined || text === '') return undefined;
  const cursor = typeof text === 'string' ? decodeCursor(text) : undefined;
  if (!cursor)
    throw badRequest('cursor: must be the nextCursor of a page', { cursor: 'must be the nextCursor of a page' });
  return cursor;
}

/** Who wrote a note: the signed-in user's name or email, else the token's name. */
function authorOf(request: FastifyRequest): string {
  const metadata = request.authentication?.metadata ?? {};
  return (
    metadata[AuthMetadata.name] ??
    metadata[AuthMetadata.email] ??
    metadata[AuthMetadata.oidcEmail] ??
    metadata[AuthMetadata.tokenName] ??
    'Ensign user'
  );
}

const tagBody = v.object({
  name: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(255, 'must be at most 255 characters'),
  ),
});
const noteText = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(10_000, 'must be at most 10000 characters'),
);
const noteChange = v.object({ text: v.optional(noteText), isResolved: v.optional(v.boolean('must be true or false')) });

const environmentPath = v.object({ namespaceKey: v.string(), environmentId: v.string() });
const surveyPath = v.object({ ...environmentPath.entries, surveyId: v.string() });
const responsePath = v.object({ ...environmentPath.entries, responseId: v.string() });
const tagPath = v.object({ ...responsePath.entries, tagId: v.string() });
const notePath = v.object({ ...responsePath.entries, noteId: v.string() });
const webhookPath = v.object({ ...environmentPath.entries, webhookId: v.string() });
type Located<P extends v.GenericSchema> = { params: v.InferOutput<P> };
type ResultsLoaders = ReturnType<typeof resultsLoaders>;

const SURVEY = `${ENVIRONMENT}/surveys/:surveyId/results`;
const RESPONSE = `${ENVIRONMENT}/responses/:responseId`;

/**
 * The console's survey results API, beside the console's survey routes (under a namespace's survey
 * environment, so guarded as Flipt's management API, namespace-scoped tokens included): summary, trends,
 * the response list, the CSV export, tags, notes, deleting a response, and webhooks. Read-only storage refuses
 * writes. Its own errors have the survey APIs' shape (details by field); the others (authentication's)
 * are left to the app's handler.
 */
export async function surveyResultsPlugin(app: FastifyInstance, context: AppContext): Promise<void> {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SurveyApiError) return answerSurveyError(error, request, reply);
    throw error;
  });
  const { database } = context;
  const store = new SurveyStore(database, context.changes);
  const load = resultsLoaders(store, database, context.flipt);
  addRoutes(new RouteTable(app, parseInput), [
    ...resultRoutes(database, load),
    ...annotationRoutes(store, database, load),
    ...webhookRoutes(database, context.config.surveys.webhooksAllowInternalAddresses, load),
  ]);
}

/** What the routes act on, loaded before their bodies are checked (a write on read-only storage is refused first). */
function resultsLoaders(store: SurveyStore, database: Database, flipt: { readonly readOnly: boolean }) {
  const environment = async ({ params }: Located<typeof environmentPath>) => {
    const found = await store.namespaceEnvironment(params.namespaceKey, params.environmentId);
    if (!found) throw notFound('Environment', params.environmentId);
    return found;
  };
  /** The environment's thing of the path, found by `find`; another environment's is not disclosed. */
  const inEnvironment =
    <P extends v.InferOutput<typeof environmentPath>, T extends { environmentId: string }>(
      type: string,
      idOf: (params: P) => string,
      find: (id: string) => Promise<T | undefined>,
    ) =>
    async ({ params }: { params: P }): Promise<T> => {
      const { id } = await environment({ params });
      const found = await find(idOf(params));
      if (found?.environmentId !== id) throw notFound(type, idOf(params));
      return found;
    };
  type Params<S extends v.GenericSchema> = v.InferOutput<S>;
  const survey = inEnvironment(
    'Survey',
    (p: Params<typeof surveyPath>) => p.surveyId,
    (id) => store.survey(id),
  );
  const response = inEnvironment(
    'Response',
    (p: Params<typeof responsePath>) => p.responseId,
    (id) => store.response(id),
  );
  const webhook = inEnvironment(
    'Webhook',
    (p: Params<typeof webhookPath>) => p.webhookId,
    (id) => webhooksStore.webhook(database, id),
  );
  /** `load`, for a write: read-only storage refuses it before anything is looked up. */
  const writing =
    <I, T>(load: (input: I) => Promise<T>) =>
    (input: I) => {
      if (flipt.readOnly) throw readOnlyStorage();
      return load(input);
    };
  return {
    environment,
    survey,
    webhook,
    environmentToChange: writing(environment),
    responseToChange: writing(response),
    webhookToChange: writing(webhook),
  };
}

/** A survey's results: summary, by variant, trends, the response list and the CSV export. */
function resultRoutes(database: Database, load: ResultsLoaders) {
  return [
    route({
      method: 'GET',
      url: `${SURVEY}/summary`,
      params: surveyPath,
      load: load.survey,
      handler: async ({ loaded, query }) => ({ data: await summarize(database, loaded, filterOf(query, loaded)) }),
    }),
    route({
      method: 'GET',
      url: `${SURVEY}/by-variant`,
      params: surveyPath,
      load: load.survey,
      handler: async ({ loaded, query }) => ({
        data: await resultsByVariant(database, loaded, filterOf(query, loaded)),
      }),
    }),
    route({
      method: 'GET',
      url: `${SURVEY}/trends`,
      params: surveyPath,
      load: load.survey,
      handler: async ({ loaded, query }) => ({ data: await trends(database, loaded, filterOf(query, loaded)) }),
    }),
    // The query's filter names the survey's questions, so it is checked once the survey is loaded.
    route({
      method: 'GET',
      url: `${SURVEY}/responses`,
      params: surveyPath,
      load: load.survey,
      handler: async ({ loaded, query }) => {
        const { limit } = pageOf(pick(query, ['limit']));
        return listResponses(database, { surveyId: loaded.id }, filterOf(query, loaded), {
          limit,
          after: cursorOf(query),
        });
      },
    }),
    route({
      method: 'GET',
      url: `${SURVEY}/export.csv`,
      params: surveyPath,
      load: load.survey,
      handler: async ({ loaded, query }, _request, reply) => {
        const filter = filterOf(query, loaded);
        const keys = await attributeKeys(database, loaded.environmentId);
        const name = loaded.name.replace(/[^\w-]+/g, '-').toLowerCase() || 'survey';
        const date = new Date().toISOString().slice(0, 10);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="export-${name}-${date}.csv"`)
          .send(Readable.from(exportCsv(database, loaded, filter, keys)));
      },
    }),
  ];
}

/** What the operator does to a response: delete it, tag it, write and resolve notes on it. */
function annotationRoutes(store: SurveyStore, database: Database, load: ResultsLoaders) {
  return [
    route({
      method: 'DELETE',
      url: RESPONSE,
      params: responsePath,
      load: load.responseToChange,
      handler: async ({ loaded }) => {
        await store.deleteResponse(loaded.id);
        return { data: loaded };
      },
    }),
    route({
      method: 'GET',
      url: `${ENVIRONMENT}/tags`,
      params: environmentPath,
      load: load.environment,
      handler: async ({ loaded }) => ({ data: await annotations.tags(database, loaded.id) }),
    }),
    route({
      method: 'POST',
      url: `${RESPONSE}/tags`,
      params: responsePath,
      load: load.responseToChange,
      body: tagBody,
      handler: async ({ loaded, body }) => ({
        data: await annotations.tagResponse(database, loaded.environmentId, loaded.id, body.name),
      }),
    }),
    route({
      method: 'DELETE',
      url: `${RESPONSE}/tags/:tagId`,
      params: tagPath,
      load: load.responseToChange,
      handler: async ({ loaded, params }) => {
        await annotations.untagResponse(database, loaded.id, params.tagId);
        return { data: {} };
      },
    }),
    route({
      method: 'POST',
      url: `${RESPONSE}/notes`,
      params: responsePath,
      load: load.responseToChange,
      body: v.object({ text: noteText }),
      handler: async ({ loaded, body }, request) => ({
        data: await annotations.addNote(database, loaded.id, authorOf(request), body.text),
      }),
    }),
    route({
      method: 'PATCH',
      url: `${RESPONSE}/notes/:noteId`,
      params: notePath,
      load: load.responseToChange,
      body: noteChange,
      handler: async ({ loaded, params, body }) => {
        const note = await annotations.updateNote(database, loaded.id, params.noteId, body);
        if (!note) throw notFound('Note', params.noteId);
        return { data: note };
      },
    }),
  ];
}

/** The environment's webhooks as the console edits them (marked as the operator's), with their deliveries. */
function webhookRoutes(database: Database, allowInternalWebhookAddresses: boolean, load: ResultsLoaders) {
  return [
    route({
      method: 'GET',
      url: `${ENVIRONMENT}/webhooks`,
      params: environmentPath,
      load: load.environment,
      handler: async ({ loaded }) => ({ data: await webhooksStore.webhooks(database, loaded.id) }),
    }),
    route({
      method: 'POST',
      url: `${ENVIRONMENT}/webhooks`,
      params: environmentPath,
      load: load.environmentToChange,
      body: webhookInputSchema,
      handler: async ({ loaded, body }) => ({
        data: await saveCheckedWebhook(database, loaded.id, { ...body, source: 'user' }, allowInternalWebhookAddresses),
      }),
    }),
    route({
      method: 'PUT',
      url: `${ENVIRONMENT}/webhooks/:webhookId`,
      params: webhookPath,
      load: load.webhookToChange,
      body: webhookInputSchema,
      handler: async ({ loaded, body }) => ({
        data: await saveCheckedWebhook(database, loaded.environmentId, body, allowInternalWebhookAddresses, loaded.id),
      }),
    }),
    route({
      method: 'DELETE',
      url: `${ENVIRONMENT}/webhooks/:webhookId`,
      params: webhookPath,
      load: load.webhookToChange,
      handler: async ({ loaded }) => {
        await webhooksStore.deleteWebhook(database, loaded.id);
        return { data: loaded };
      },
    }),
    // A paused webhook's deliveries go out again.
    route({
      method: 'POST',
      url: `${ENVIRONMENT}/webhooks/:webhookId/resume`,
      params: webhookPath,
      load: load.webhookToChange,
      handler: async ({ loaded }) => {
        await webhooksStore.resumeWebhook(database, loaded.id);
        return { data: await webhooksStore.webhook(database, loaded.id) };
      },
    }),
    route({
      method: 'GET',
      url: `${ENVIRONMENT}/webhooks/:webhookId/deliveries`,
      params: webhookPath,
      load: load.webhook,
      handler: async ({ loaded }) => ({ data: await webhooksStore.webhookDeliveries(database, loaded.id) }),
    }),
  ];
}
