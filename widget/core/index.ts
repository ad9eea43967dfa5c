/**
 * The survey loader: the public API of @formbricks/js 1.6 (docs/compatibility.md).
 * Every call goes through the command queue; nothing throws into the host page.
 */
import type { TJsConfig, TJsConfigInput } from '../../domain/surveys/types.js';
import { NEW_SESSION } from '../../domain/surveys/types.js';
import { client, type Client } from './api.js';
import { type SurveyChunk, sendUnsent, surveyChunk } from './chunk.js';
import { addContainer, removeContainer } from './container.js';
import { darkMode } from './dark.js';
import { debug, error, flags, handle } from './log.js';
import { q } from './queue.js';
import { KEY, cfg, expired, peek, read, save, use } from './store.js';
import { VERSION, errorState, sync, updatePerson, type Target } from './sync.js';
import { checkPage, deinit, listen, track } from './triggers.js';

export { VERSION };

const missing = (field: string) => ({ code: 'missing_field', field });

// The first read of local storage on a page waits for the browser to load the origin's storage: done as the
// script loads (where @formbricks/js reads its config), so that init() does not wait for it. init() reads
// the config again, as it is then.
read(KEY);

const initialize = async (c: Partial<TJsConfigInput> = {}): Promise<void> => {
  flags.debug_ = location.search.includes('formbricksDebug=true') || !!c.debug;
  if (flags.initialized_) return;
  // responses a previous page could not send go out now, whatever the state of the config
  sendUnsent(c.apiHost);
  let existing = read<TJsConfig>(KEY);
  if (expired(existing)) {
    if (existing) debug('Config in local storage has expired');
    existing = null;
  }
  if (existing?.status === 'error') return debug('Error state is not expired, skipping initialization');
  const { environmentId, apiHost, userId, attributes } = c;
  if (!environmentId) throw missing('environmentId');
  if (!apiHost) throw missing('apiHost');
  flags.rendererUrl_ = c.rendererUrl;
  if (!userId && attributes) {
    error('No userId provided but attributes. Cannot update attributes without userId.');
    throw missing('userId');
  }
  const target = { environmentId, apiHost, userId };
  const reuse =
    existing?.state &&
    existing.environmentId === environmentId &&
    existing.apiHost === apiHost &&
    existing.userId === userId
      ? existing
      : null;
  const changed = await sendChanged(target, reuse?.state.attributes || {}, attributes);
  addContainer();
  use(reuse);
  if (!reuse) {
    // The survey chunk is imported alongside the sync, so that a survey shown as soon as init() resolves waits
    // for no download. (With a config reused, the idle-time prefetch loads it if a survey could show.)
    void surveyChunk(apiHost);
    try {
      await sync(target);
    } catch (e) {
      errorState();
      removeContainer();
      throw e;
    }
    await track(NEW_SESSION);
  }
  remember(changed);
  listen(true);
  flags.initialized_ = true;
  await checkPage();
};

/**
 * Sends only the attributes that differ from the cached ones, as strings, and returns them; when none
 * differ, sends nothing and returns nothing.
 */
const sendChanged = async (
  t: Target,
  cached: Record<string, string>,
  attributes: Record<string, unknown> = {},
): Promise<Record<string, string> | undefined> => {
  const changed: Record<string, string> = {};
  for (const k in attributes) {
    const v = String(attributes[k]);
    if (cached[k] !== v) changed[k] = v;
  }
  if (Object.keys(changed).length) {
    await updatePerson(t, changed);
    return changed;
  }
};

/**
 * Merges changed attributes into the cached ones (after a sync, which replaces them) and stores the config;
 * with none changed, the stored config is already right and is not written again (it holds every survey).
 */
const remember = (attributes?: Record<string, string>): void => {
  if (!attributes) return;
  const c = cfg();
  c.state.attributes = { ...c.state.attributes, ...attributes };
  save(c);
};

const setAttribute = async (key: string, value: unknown): Promise<void> => {
  const c = cfg();
  remember(await sendChanged(c, c.state.attributes, { [key]: value }));
};

const logout = (): void => {
  deinit();
  save(null);
};

const reset = async (): Promise<void> => {
  // the config holds environmentId, apiHost and userId, and no attributes
  const c = cfg() as Partial<TJsConfigInput>;
  logout();
  await initialize(c);
};

/** A public command: queued, and only once initialised. */
const command =
  <A extends unknown[]>(f: (...args: A) => unknown) =>
  (...args: A): Promise<void> =>
    q(true, f, ...args);

const formbricks = {
  VERSION,
  init: (config: TJsConfigInput): Promise<void> => {
    // the handler (the custom one, or the default) is installed before anything is queued
    flags.handler_ = config?.errorHandler;
    flags.handlerSet_ = true;
    return q(false, initialize, config);
  },
  setUserId: command(() =>
    error("'setUserId' is no longer supported. Please set the userId in the init call instead."),
  ),
  setEmail: command((email: string) => setAttribute('email', email)),
  setAttribute: command(setAttribute),
  track: command(track as (name: string, properties?: Record<string, unknown>) => Promise<void>),
  logout: command(logout),
  reset: command(reset),
  registerRouteChange: command(checkPage),
  /** The client API of the initialised environment (undefined, and an error handled, before init). */
  getApi: (): { client: Client } | undefined => {
    const c = peek();
    if (c) return { client: client(c.apiHost, c.environmentId) };
    handle(new Error('formbricks.init() must be called before getApi()'));
  },
  deinit: (): Promise<void> => q(false, deinit),
  darkMode,
};

export default formbricks;

/** The builds' entries start the imported survey chunk with the loader's own config store, client and logger. */
export const startChunk = (chunk: typeof import('./survey.js')): SurveyChunk =>
  chunk.default(cfg, save, client, sync, errorState, deinit, debug, handle);
