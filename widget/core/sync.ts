import type { TJsConfig, TJsState, TJsStateSync } from '../../domain/surveys/types.js';
import { client, must, req } from './api.js';
import { debug, isDebug } from './log.js';
import { KEY, MINUTE, iso, peek, read, save, use, write } from './store.js';

export const VERSION = '1.6.5';

export type Target = Pick<TJsConfig, 'apiHost' | 'environmentId' | 'userId'>;

const DAY = 86_400_000;
const days = (since: string): number => Math.floor(Math.abs(Date.now() - new Date(since).getTime()) / DAY);

/**
 * Client-side display filtering for anonymous visitors (spec §5), from their local display history.
 * As in @formbricks/js 1.6.5, a survey's own recontact days count from its first local display.
 */
export const filter = (state: TJsState): TJsState => {
  const { displays, product } = state;
  if (!displays) return state;
  const latest = displays[displays.length - 1];
  const surveys = state.surveys.filter((s) => {
    const own = displays.filter((d) => d.surveyId === s.id);
    const o = s.displayOption;
    if (o === 'displayOnce') {
      if (own.length) return false;
    } else if (o === 'displayMultiple') {
      if (own.some((d) => d.responded)) return false;
    } else if (o !== 'respondMultiple') throw new Error('Invalid displayOption');
    if (!latest) return true;
    if (s.recontactDays !== null) return !own[0] || days(own[0].createdAt) >= s.recontactDays;
    return product.recontactDays === null || days(latest.createdAt) >= product.recontactDays;
  });
  return { ...state, surveys };
};

const valid = (d: TJsStateSync | null): d is TJsStateSync =>
  !!d && Array.isArray(d.surveys) && d.surveys.every((s) => s && Array.isArray(s.triggers)) && Array.isArray(d.noCodeActionClasses) && !!d.product;

/** GET in-app/sync[/{userId}]; on success the config expires 2 minutes later. Throws a network_error. */
export const sync = async (t: Target, noCache = false): Promise<void> => {
  const url = `${t.apiHost}/api/v1/client/${t.environmentId}/in-app/sync${t.userId ? '/' + t.userId : ''}?version=${VERSION}`;
  const r = await req<TJsStateSync>(url, 'GET', undefined, noCache || isDebug() ? { cache: 'no-cache' } : undefined);
  const message = 'Error syncing with backend';
  const d = must(r, message);
  if (!valid(d)) throw { code: 'network_error', status: 200, message, url, responseMessage: 'Unexpected sync payload' };
  let state: TJsState = {
    surveys: d.surveys,
    noCodeActionClasses: d.noCodeActionClasses,
    product: d.product,
    attributes: (d.person?.attributes as Record<string, string>) || {},
  };
  if (!t.userId) {
    // Beyond 1.6.5: the local display history outlives an expired config of the same environment.
    const stored = read<TJsConfig>(KEY);
    state = filter({ ...state, displays: (stored?.environmentId === t.environmentId && stored.state?.displays) || [] });
  }
  debug(`Fetched ${state.surveys.length} surveys during sync: ${state.surveys.map((s) => s.name).join(', ')}`);
  save({ apiHost: t.apiHost, environmentId: t.environmentId, userId: t.userId, state, expiresAt: iso(2 * MINUTE), status: 'success' });
};

/** The error state: init is skipped until it expires, 10 minutes from now. */
export const errorState = (): void => {
  write(KEY, { ...peek(), status: 'error', expiresAt: iso(10 * MINUTE) });
  use(null);
};

/** POST people/{userId} with the given attributes. Throws a network_error. */
export const updatePerson = async (t: Target, attributes: Record<string, string | number>): Promise<void> => {
  if (!t.userId) {
    throw { code: 'missing_person', message: 'Unable to update attribute. User identification deactivated. No userId set.' };
  }
  must(await client(t.apiHost, t.environmentId).people.update(t.userId, { attributes }), `Error updating person with userId ${t.userId}`);
};
