import { HAND_OVER, type RouteTable } from '../route-definitions.js';
import * as v from 'valibot';
import { SurveyStore } from './store/index.js';
import { type IdentifiedSync, identifiedAnswer } from './identified-sync.js';
import { anonymousAnswer, type SyncStates } from './sync.js';
import { environmentParams, syncParams } from './client-environment.js';

/** Any value, or none: 1.6 clients send their version, older ones nothing. */
const syncQuery = v.object({ version: v.optional(v.unknown()) });

/**
 * The environment's sync state, read when not kept (404 when unknown); the first sync of any client
 * generation tells the operator the widget is installed.
 */
export async function installedState(store: SurveyStore, syncStates: SyncStates, environmentId: string) {
  const state = async () => SurveyStore.required(await syncStates.get(environmentId), 'Environment', environmentId);
  const kept = await state();
  if (kept.environment.widgetSetupCompleted) return kept;
  // The answer already says so: the write drops the kept state, read again.
  await store.markWidgetSetupCompleted(environmentId);
  return state();
}

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
  const syncStateOf = (environmentId: string) => installedState(store, syncStates, environmentId);
  /**
   * The SDK generation a sync comes from: `5` from the loader's setup() face, which today's @formbricks/js
   * calls (it sends version 5.x, widget/core/sync.ts), else `1.6` (init(), @formbricks/js 1.6.5, older clients).
   */
  const generationOf = (version: unknown) => (typeof version === 'string' && version.startsWith('5.') ? '5' : '1.6');
  /** On Fastify's path: records the sync's SDK generation for the console. */
  const recordGeneration = (environmentId: string, version: unknown) =>
    store.recordSdkGeneration(environmentId, generationOf(version));
  /** On the hot path, only a kept state of an installed widget: anything else is read (or written) by Fastify's route. */
  const keptState = (environmentId: string, version: unknown) => {
    const recorded = store.sdkGenerationRecorded(environmentId, generationOf(version));
    const state = recorded ? syncStates.kept(environmentId) : undefined;
    return state?.environment.widgetSetupCompleted ? state : undefined;
  };

  // The same for every anonymous visitor: kept as bytes, revalidated by browsers with its ETag.
  routes.add({
    method: 'GET',
    url: '/:environmentId/in-app/sync',
    params: environmentParams,
    query: syncQuery,
    hot: true,
    handler: ({ params: { environmentId }, query }, request) => {
      const ifNoneMatch = request.headers['if-none-match'];
      if (!request.onHotPath) {
        return recordGeneration(environmentId, query.version)
          .then(() => syncStateOf(environmentId))
          .then((state) => anonymousAnswer(state, ifNoneMatch));
      }
      const state = keptState(environmentId, query.version);
      return state ? anonymousAnswer(state, ifNoneMatch) : HAND_OVER;
    },
  });

  routes.add({
    method: 'GET',
    url: '/:environmentId/in-app/sync/:userId',
    params: syncParams,
    query: syncQuery,
    hot: true,
    handler: async ({ params: { environmentId, userId }, query }, request) => {
      if (!request.onHotPath) await recordGeneration(environmentId, query.version);
      const state = request.onHotPath ? keptState(environmentId, query.version) : await syncStateOf(environmentId);
      if (!state) return HAND_OVER;
      const visitor = {
        userId,
        userAgent: request.headers['user-agent'] ?? '',
        // Clients older than 1.6 send no version and read the person from the sync.
        withPerson: query.version === undefined,
      };
      // A visitor seen for the first time is made a person on Fastify's path, where it counts as a survey write.
      const { countAgainst } = request;
      const body = await identified(state, visitor, countAgainst && (() => countAgainst('surveyWrites')));
      return body ? identifiedAnswer(body) : HAND_OVER;
    },
  });
}
