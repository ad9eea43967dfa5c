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
import { SurveyApiError, answerSurveyError, badRequest, notFound } from './errors.js';
import { resultsByVariant } from './by-variant.js';
import { decodeCursor, exportCsv, listResponses, summarize, trends } from './results.js';
import * as annotations from './store/annotations.js';
import * as webhooksStore from './store/webhooks.js';
import { webhookInputSchema } from './webhooks.js';
import { ENVIRONMENT } from './console.js';
import { SurveyStore } from './store/index.js';
import { attributeKeys, type Cursor } from './store/results.js';
import { parseInput } from './validation.js';

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
export function pageOf(query: unknown): { limit: number; skip: number } {
  const { limit, skip } = parseInput(
    v.object({
      limit: v.optional(
        v.pipe(
          count('limit', PAGE_SIZE.max),
          v.check((n) => n === undefined || n >= 1, 'limit must be at least 1'),
        ),
      ),
      skip: count('skip', Number.MAX_SAFE_INTEGER),
    }),
    pick(query, ['limit', 'skip']),
  );
  return { limit: limit ?? PAGE_SIZE.default, skip: skip ?? 0 };
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
  const params = (request: FastifyRequest) =>
    request.params as {
      namespaceKey: string;
      environmentId: string;
      surveyId: string;
      responseId: string;
      tagId: string;
      noteId: string;
      webhookId: string;
    };
  const writable = () => {
    if (context.flipt.readOnly) throw new SurveyApiError(403, 'unauthorized', 'The storage is read-only');
  };
  const environmentOf = async (request: FastifyRequest) => {
    const { namespaceKey, environmentId } = params(request);
    const environment = await store.namespaceEnvironment(namespaceKey, environmentId);
    if (!environment) throw notFound('Environment', environmentId);
    return environment;
  };
  const surveyOf = async (request: FastifyRequest) => {
    const environment = await environmentOf(request);
    const { surveyId } = params(request);
    const survey = await store.survey(surveyId);
    if (survey?.environmentId !== environment.id) throw notFound('Survey', surveyId);
    return survey;
  };
  const responseOf = async (request: FastifyRequest) => {
    const environment = await environmentOf(request);
    const { responseId } = params(request);
    const response = await store.response(responseId);
    if (response?.environmentId !== environment.id) throw notFound('Response', responseId);
    return response;
  };
  const SURVEY = `${ENVIRONMENT}/surveys/:surveyId/results`;
  const RESPONSE = `${ENVIRONMENT}/responses/:responseId`;

  app.get(`${SURVEY}/summary`, async (request) => {
    const survey = await surveyOf(request);
    return { data: await summarize(database, survey, filterOf(request.query, survey)) };
  });

  app.get(`${SURVEY}/by-variant`, async (request) => {
    const survey = await surveyOf(request);
    return { data: await resultsByVariant(database, survey, filterOf(request.query, survey)) };
  });

  app.get(`${SURVEY}/trends`, async (request) => {
    const survey = await surveyOf(request);
    return { data: await trends(database, survey, filterOf(request.query, survey)) };
  });

  app.get(`${SURVEY}/responses`, async (request) => {
    const survey = await surveyOf(request);
    const { limit } = pageOf(pick(request.query, ['limit']));
    return listResponses(database, { surveyId: survey.id }, filterOf(request.query, survey), {
      limit,
      after: cursorOf(request.query),
    });
  });

  app.get(`${SURVEY}/export.csv`, async (request, reply) => {
    const survey = await surveyOf(request);
    const filter = filterOf(request.query, survey);
    const keys = await attributeKeys(database, survey.environmentId);
    const name = survey.name.replace(/[^\w-]+/g, '-').toLowerCase() || 'survey';
    return reply
      .type('text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="export-${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
      )
      .send(Readable.from(exportCsv(database, survey, filter, keys)));
  });

  app.delete(RESPONSE, async (request) => {
    writable();
    const response = await responseOf(request);
    await store.deleteResponse(response.id);
    return { data: response };
  });

  app.get(`${ENVIRONMENT}/tags`, async (request) => ({
    data: await annotations.tags(database, (await environmentOf(request)).id),
  }));

  app.post(`${RESPONSE}/tags`, async (request) => {
    writable();
    const response = await responseOf(request);
    const { name } = parseInput(tagBody, request.body);
    return { data: await annotations.tagResponse(database, response.environmentId, response.id, name) };
  });

  app.delete(`${RESPONSE}/tags/:tagId`, async (request) => {
    writable();
    const response = await responseOf(request);
    await annotations.untagResponse(database, response.id, params(request).tagId);
    return { data: {} };
  });

  app.post(`${RESPONSE}/notes`, async (request) => {
    writable();
    const response = await responseOf(request);
    const { text } = parseInput(v.object({ text: noteText }), request.body);
    return { data: await annotations.addNote(database, response.id, authorOf(request), text) };
  });

  const webhookOf = async (request: FastifyRequest) => {
    const environment = await environmentOf(request);
    const { webhookId } = params(request);
    const hook = await webhooksStore.webhook(database, webhookId);
    if (hook?.environmentId !== environment.id) throw notFound('Webhook', webhookId);
    return hook;
  };

  app.get(`${ENVIRONMENT}/webhooks`, async (request) => ({
    data: await webhooksStore.webhooks(database, (await environmentOf(request)).id),
  }));

  app.post(`${ENVIRONMENT}/webhooks`, async (request) => {
    writable();
    const environment = await environmentOf(request);
    const input = parseInput(webhookInputSchema, request.body);
    return { data: await webhooksStore.saveWebhook(database, environment.id, { ...input, source: 'user' }) };
  });

  app.put(`${ENVIRONMENT}/webhooks/:webhookId`, async (request) => {
    writable();
    const hook = await webhookOf(request);
    const input = parseInput(webhookInputSchema, request.body);
    return { data: await webhooksStore.saveWebhook(database, hook.environmentId, input, hook.id) };
  });

  app.delete(`${ENVIRONMENT}/webhooks/:webhookId`, async (request) => {
    writable();
    const hook = await webhookOf(request);
    await webhooksStore.deleteWebhook(database, hook.id);
    return { data: hook };
  });

  app.get(`${ENVIRONMENT}/webhooks/:webhookId/deliveries`, async (request) => ({
    data: await webhooksStore.webhookDeliveries(database, (await webhookOf(request)).id),
  }));

  app.patch(`${RESPONSE}/notes/:noteId`, async (request) => {
    writable();
    const response = await responseOf(request);
    const change = parseInput(noteChange, request.body);
    const note = await annotations.updateNote(database, response.id, params(request).noteId, change);
    if (!note) throw notFound('Note', params(request).noteId);
    return { data: note };
  });
}
