import type { TJsConfig, TJsState, TJsStateSync } from '../../domain/surveys/types.js';
import { client } from './api.js';
import { filter } from './filter.js';
import { debug, flags } from './log.js';
import { must, req } from './request.js';
import { KEY, MINUTE, iso, peek, read, save, use, write } from './store.js';

export const VERSION = '1.6.5';
/** The version the setup() face syncs with: the @formbricks/js generation that calls it (the server records it). */
const CURRENT = '5.1.0';

export type Target = Pick<TJsConfig, 'apiHost' | 'environmentId' | 'userId'>;

const valid = (d: TJsStateSync | null): d is TJsStateSync =>
  Array.isArray(d?.surveys) &&
  d.surveys.every((s) => Array.isArray(s?.triggers)) &&
  Array.isArray(d.noCodeActionClasses) &&
  !!d.product;

/** GET in-app/sync[/{userId}]; on success the config expires 2 minutes later. Throws a network_error. */
export const sync = async (t: Target, noCache?: boolean): Promise<void> => {
  const url = `${t.apiHost}/api/v1/client/${t.environmentId}/in-app/sync${t.userId ? '/' + t.userId : ''}?version=${flags.current_ ? CURRENT : VERSION}`;
  const message = 'Error syncing with backend';
  const d = must(
    await req<TJsStateSync>(url, 0, '', { cache: noCache || flags.debug_ ? 'no-cache' : undefined }),
    message,
  );
  if (!valid(d)) throw { code: 'network_error', status: 200, message, url, responseMessage: 'Unexpected sync payload' };
  const { surveys, noCodeActionClasses, product, person } = d;
  let state: TJsState = {
    surveys,
    noCodeActionClasses,
    product,
    attributes: (person?.attributes as Record<string, string>) || {},
  };
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
    throw {
      code: 'missing_person',
      message: 'Unable to update attribute. User identification deactivated. No userId set.',
    };
  }
  must(
    await client(t.apiHost, t.environmentId).people.update(t.userId, { attributes }),
    `Error updating person with userId ${t.userId}`,
  );
};
