/**
 * The survey loader: the public API of @formbricks/js 1.6 (`init`, docs/compatibility.md) and, from the
 * same object, the global today's @formbricks/js loads (`setup`, docs/compatibility.md, "The 5.x face").
 * Every call goes through the command queue; nothing throws into the host page.
 */
import type { TJsConfig, TJsConfigInput } from '../../domain/surveys/types.js';
import { NEW_SESSION } from '../../domain/surveys/types.js';
import { client, type Client } from './api.js';
import { type SurveyChunk, sendUnsent, surveyChunk } from './chunk.js';
import { addContainer, removeContainer } from './container.js';
import { darkMode } from './dark.js';
import { emit, off, on } from './events.js';
import { debug, error, flags, handle } from './log.js';
import { q } from './queue.js';
import { KEY, cfg, expired, peek, read, save, use } from './store.js';
import { VERSION, errorState, sync, updatePerson, type Target } from './sync.js';
import { checkPage, deinit, embedded, listen, track } from './triggers.js';

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

/** The 5.x face: attributes set before setUserId, sent with it. */
let pending: Record<string, unknown> = {};

const setAttributes = async (attributes: Record<string, unknown>): Promise<void> => {
  const c = cfg();
  if (!c.userId && flags.current_) return void Object.assign(pending, attributes);
  remember(await sendChanged(c, c.state.attributes, attributes));
};
const setAttribute = (key: string, value: unknown) => setAttributes({ [key]: value });

/** 1.6: forgets the config and stops the widget. 5.x: forgets the visitor and goes on anonymously. */
const logout = async (): Promise<void> => {
  pending = {};
  if (!flags.current_) return (deinit(), save(null));
  const { apiHost, environmentId } = cfg();
  await sync({ apiHost, environmentId });
};

/** The 5.x face: syncs as this person (created on first sight) and sends the attributes set before. */
const setUserId = async (userId?: string): Promise<void> => {
  if (!flags.current_)
    return error("'setUserId' is no longer supported. Please set the userId in the init call instead.");
  const { apiHost, environmentId, userId: current } = cfg();
  if (current !== userId) await sync({ apiHost, environmentId, userId });
  const attributes = pending;
  pending = {};
  await setAttributes(attributes);
};

/** The 5.x face's setup({ appUrl, workspaceId | environmentId }): init() as the person this page last set. */
const setup = async ({ appUrl, workspaceId, environmentId }: Setup = {}): Promise<void> => {
  const apiHost = appUrl?.replace(/\/$/, '');
  // an environment's id is its workspace id
  environmentId = workspaceId || environmentId;
  const last = read<TJsConfig>(KEY);
  const same = last?.environmentId === environmentId && last?.apiHost === apiHost;
  await initialize({ environmentId, apiHost, userId: same ? last?.userId : undefined });
  if (flags.initialized_) emit('setup_successful', { workspaceId: environmentId });
};
interface Setup {
  appUrl?: string;
  workspaceId?: string;
  environmentId?: string;
}

/** setEmbeddedData(): merged, a null value removes its key, an undefined one is skipped. */
const setEmbeddedData = (data: Record<string, unknown>): void => {
  for (const k in data) {
    if (data[k] === null) delete embedded[k];
    else if (data[k] !== undefined) embedded[k] = data[k];
  }
};
/** clearEmbeddedData(): everything only when called with no argument at all. */
const clearEmbeddedData = (...args: [] | [key: string]): void => {
  for (const k in embedded) if (!args.length || k === args[0]) delete embedded[k];
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
  setUserId: command(setUserId),
  setEmail: command((email: string) => setAttribute('email', email)),
  setAttribute: command(setAttribute),
  track: command(track),
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
  // The 5.x face: setup, events and embedded data, also before setup; the rest need it.
  setup: (config?: Setup): Promise<void> => {
    flags.handlerSet_ = flags.current_ = true;
    return q(false, setup, config);
  },
  setAttributes: command(setAttributes),
  setLanguage: command((language: string) => setAttribute('language', language)),
  setNonce: (nonce?: string): Promise<void> => q(false, () => (flags.nonce_ = nonce)),
  setEmbeddedData: (data: Record<string, unknown>): Promise<void> => q(false, setEmbeddedData, data),
  clearEmbeddedData: (...args: [] | [key: string]): Promise<void> => q(false, clearEmbeddedData, ...args),
  on,
  off,
};

export default formbricks;

/** The builds' entries start the imported survey chunk with the loader's own config store, client and logger. */
export const startChunk = (chunk: typeof import('./survey.js')): SurveyChunk =>
  chunk.default(cfg, save, client, sync, errorState, deinit, debug, handle, emit);
