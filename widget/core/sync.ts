import type { TJsConfig, TJsState, TJsStateSync } from '../../domain/surveys/types.js';
import { client } from './api.js';
import { debug, flags, raise } from './log.js';
import { must, req } from './request.js';
import { KEY, MINUTE, iso, peek, read, save, use, write } from './store.js';

export const VERSION = '1.6.5';

export type Target = Pick<TJsConfig, 'apiHost' | 'environmentId' | 'userId'>;

const DAY = 86_400_000;
const days = (since: string): number => Math.floor(Math.abs(Date.now() - Date.parse(since)) / DAY);

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
    if (o === 'displayOnce' ? own[0] : o === 'displayMultiple' ? own.some((d) => d.responded) : o !== 'respondMultiple' && raise('Invalid displayOption')) {
      return false;
    }
    // the survey's own recontact days against its own first display, else the product's against the latest display
    const [since, limit] = s.recontactDays !== null ? [own[0], s.recontactDays] : [latest, product.recontactDays];
    return !since || limit === null || days(since.createdAt) >= limit;
  });
  return { ...state, surveys };
};

const valid = (d: TJsStateSync | null): d is TJsStateSync =>
  Array.isArray(d?.surveys) && d.surveys.every((s) => Array.isArray(s?.triggers)) && Array.isArray(d.noCodeActionClasses) && !!d.product;

/** GET in-app/sync[/{userId}]; on success the config expires 2 minutes later. Throws a network_error. */
export const sync = async (t: Target, noCache?: boolean): Promise<void> => {
  const url = `${t.apiHost}/api/v1/client/${t.environmentId}/in-app/sync${t.userId ? '/' + t.userId : ''}?version=${VERSION}`;
  const message = 'Error syncing with backend';
  const d = must(await req<TJsStateSync>(url, 0, '', { cache: noCache || flags.debug_ ? 'no-cache' : undefined }), message);
  if (!valid(d)) throw { code: 'network_error', status: 200, message, url, responseMessage: 'Unexpected sync payload' };
  const { surveys, noCodeActionClasses, product, person } = d;
  let state: TJsState = { surveys, noCodeActionClasses, product, attributes: (person?.attributes as Record<string, string>) || {} };
  if (!t.userId) {
    // Beyond 1.6.5: the local display history outlives an expired config of the same environment.
    const stored = read<TJsConfig>(KEY);
    state = filter({ ...state, displays: (stored?.environmentId === t.environmentId && stored.state?.displays) || [] });
  }
  debug(`Fetched ${state.surveys.length} surveys during sync: ${state.surveys.map((s) => s.name).join(', ')}`);
  // t is a Target or a whole config: every other field is replaced
  save({ ...t, state, expiresAt: iso(2 * MINUTE), status: 'success' });
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
