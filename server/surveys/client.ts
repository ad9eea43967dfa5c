import type { FastifyRequest } from 'fastify';
import type { RouteHandler, RouteTable } from '../route-definitions.js';
import * as v from 'valibot';
import { SurveyStore } from './store/index.js';
import type { IdentifiedSync } from './identified-sync.js';
import { anonymousAnswer, type SyncStates } from './sync.js';
import { environmentParams, syncParams } from './client-environment.js';
import { parseInput } from './validation.js';

/** Any value, or none: 1.6 clients send their version, older ones nothing. */
const syncQuery = v.object({ version: v.optional(v.unknown()) });

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Formbricks 1.6 client API: the widget's syncs, answered as `{data}` (its displays, responses and people
 * are in their own files).
 */
export function clientRoutes(
  routes: RouteTable,
  store: SurveyStore,
  syncStates: SyncStates,
  identified: IdentifiedSync,
): void {
  /** The environment's kept sync state (400 when the id is not a cuid, 404 when unknown); the first sync tells the operator the widget is installed. */
  const syncStateOf = async (request: FastifyRequest) => {
    const { environmentId } = parseInput(environmentParams, request.params);
    const state = async () => SurveyStore.required(await syncStates.get(environmentId), 'Environment', environmentId);
    const kept = await state();
    if (kept.environment.widgetSetupCompleted) return kept;
    // The answer already says so: the write drops the kept state, read again.
    await store.markWidgetSetupCompleted(environmentId);
    return state();
  };

  // The same for every anonymous visitor: kept as bytes, revalidated by browsers with its ETag.
  routes.add({
    method: 'GET',
    url: '/:environmentId/in-app/sync',
    params: environmentParams,
    handler: async (_input, request, reply) => {
      const answer = anonymousAnswer(await syncStateOf(request), request.headers['if-none-match']);
      for (let i = 0; i < answer.headers.length; i += 2) reply.header(answer.headers[i], answer.headers[i + 1]);
      return reply.code(answer.status).send(answer.body);
    },
  });

  const identifiedSyncRoute: RouteHandler<typeof syncParams, typeof syncQuery> = async (
    { params: { userId }, query },
    request,
    reply,
  ) => {
    const state = await syncStateOf(request);
    const body = await identified(
      state,
      {
        userId,
        userAgent: request.headers['user-agent'] ?? '',
        // Clients older than 1.6 send no version and read the person from the sync.
        withPerson: query.version === undefined,
      },
      () => request.server.countAgainst('surveyWrites', request, reply),
    );
    reply.header('cache-control', 'no-store');
    return reply.type(JSON_TYPE).send(body);
  };
  routes.add({
    method: 'GET',
    url: '/:environmentId/in-app/sync/:userId',
    params: syncParams,
    query: syncQuery,
    handler: identifiedSyncRoute,
  });
}
