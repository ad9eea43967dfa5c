/**
 * The survey loader: the public API of @formbricks/js 1.6 (spec: shared/spec/widget.md).
 * Every call goes through the command queue; nothing throws into the host page.
 */
import type { TJsConfig, TJsConfigInput } from '../../domain/surveys/types.js';
import { NEW_SESSION } from '../../domain/surveys/types.js';
import { client, type Client } from './api.js';
import { darkMode } from './dark.js';
import { debug, error, handle, setDebug, setHandler } from './log.js';
import { q, isInitialized, setInitialized } from './queue.js';
import { flush } from './responses.js';
import { KEY, cfg, expired, peek, read, save, use, write } from './store.js';
import { VERSION, errorState, sync, updatePerson } from './sync.js';
import { checkPage, deinit, listen, track } from './triggers.js';
import { addContainer, removeContainer, setRendererUrl } from './widget.js';

export { VERSION };

const initialize = async (c: Partial<TJsConfigInput> = {}): Promise<void> => {
  setDebug(location.search.includes('formbricksDebug=true') || !!c.debug);
  if (isInitialized()) return;
  // responses a previous page could not send go out now, whatever the state of the config
  void flush();
  const stored = read<TJsConfig>(KEY);
  if (stored && expired(stored)) debug('Config in local storage has expired');
  const existing = expired(stored) ? null : stored;
  if (existing?.status === 'error') return debug('Error state is not expired, skipping initialization');
  if (!c.environmentId) throw { code: 'missing_field', field: 'environmentId' };
  if (!c.apiHost) throw { code: 'missing_field', field: 'apiHost' };
  setRendererUrl(c.rendererUrl);
  const target = { environmentId: c.environmentId, apiHost: c.apiHost, userId: c.userId };
  if (!c.userId && c.attributes) {
    error('No userId provided but attributes. Cannot update attributes without userId.');
    throw { code: 'missing_field', field: 'userId' };
  }
  const reuse = !!existing?.state && existing.environmentId === c.environmentId && existing.apiHost === c.apiHost && existing.userId === c.userId;
  const cached = (reuse && existing.state.attributes) || {};
  // only attributes that differ from the cached ones, as strings
  const changed: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.attributes || {})) if (cached[k] !== String(v)) changed[k] = String(v);
  const anyChanged = Object.keys(changed).length > 0;
  if (anyChanged) await updatePerson(target, changed);
  addContainer();
  if (reuse) use(existing);
  else {
    use(null);
    try {
      await sync(target);
    } catch (e) {
      errorState();
      removeContainer();
      throw e;
    }
    await track(NEW_SESSION);
  }
  if (anyChanged) remember(changed);
  listen(true);
  setInitialized(true);
  await checkPage();
};

const remember = (attributes: Record<string, string>): void => {
  const c = cfg();
  save({ ...c, state: { ...c.state, attributes: { ...c.state.attributes, ...attributes } } });
};

const setAttribute = async (key: string, value: unknown): Promise<void> => {
  const c = cfg();
  const v = String(value);
  if (c.userId && c.state.attributes[key] === v) return;
  await updatePerson(c, { [key]: v });
  remember({ [key]: v });
};

const logout = (): void => {
  deinit();
  use(null);
  write(KEY, null);
};

const reset = async (): Promise<void> => {
  const { environmentId, apiHost, userId } = cfg();
  logout();
  await initialize({ environmentId, apiHost, userId });
};

const formbricks = {
  VERSION,
  init: (config: TJsConfigInput): Promise<void> => {
    setHandler(config?.errorHandler);
    return q(false, initialize, config);
  },
  setUserId: (): Promise<void> =>
    q(true, () => error("'setUserId' is no longer supported. Please set the userId in the init call instead.")),
  setEmail: (email: string): Promise<void> => q(true, setAttribute, 'email', email),
  setAttribute: (key: string, value: unknown): Promise<void> => q(true, setAttribute, key, value),
  track: (name: string, _properties?: Record<string, unknown>): Promise<void> => q(true, track, name),
  logout: (): Promise<void> => q(true, logout),
  reset: (): Promise<void> => q(true, reset),
  registerRouteChange: (): Promise<void> => q(true, checkPage),
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
