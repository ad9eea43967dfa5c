import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BASE, ENV, HOST, fakeApi, fakeRenderer, json, loader, survey, useLoaderPage } from './helpers.js';

const KEY = 'formbricks-js';
const MIN = 60_000;
const stored = () => JSON.parse(localStorage.getItem(KEY) || 'null');

useLoaderPage();
beforeEach(() => {
  fakeRenderer();
});

describe('init', () => {
  it('requires environmentId and apiHost (missing_field)', async () => {
    const fb = await loader();
    const errorHandler = vi.fn();
    fakeApi();
    await fb.init({ apiHost: HOST, errorHandler } as never);
    await fb.init({ environmentId: ENV, errorHandler } as never);
    expect(errorHandler.mock.calls).toEqual([
      [{ code: 'missing_field', field: 'environmentId' }],
      [{ code: 'missing_field', field: 'apiHost' }],
    ]);
  });

  it('logs an error and gives missing_field userId for attributes without a userId', async () => {
    const fb = await loader();
    const errorHandler = vi.fn();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, attributes: { plan: 'free' }, errorHandler });
    expect(errorHandler).toHaveBeenCalledWith({ code: 'missing_field', field: 'userId' });
    expect(String(vi.mocked(console.error).mock.calls[0][0])).toContain(
      'No userId provided but attributes. Cannot update attributes without userId.',
    );
    expect(api.calls).toEqual([]);
  });

  it('anonymous: syncs without a user segment, stores the config for 2 minutes, fires New Session', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    const api = fakeApi({ surveys: [survey('cs1', { triggers: ['New Session'] })] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(api.paths()).toEqual(['GET /in-app/sync?version=1.6.5']);
    expect(document.getElementById('formbricks-web-container')).not.toBeNull();
    const c = stored();
    expect(c).toMatchObject({
      environmentId: ENV,
      apiHost: HOST,
      status: 'success',
      expiresAt: '2024-06-10T12:02:00.000Z',
    });
    expect(c.state).toMatchObject({ attributes: {}, displays: [] });
    expect(c.userId).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered.map((p) => p.survey.id)).toEqual(['cs1']);
  });

  it('identified: sends changed attributes first, syncs /sync/{userId}, posts New Session', async () => {
    const fb = await loader();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', attributes: { email: 'a@b.c', age: 3 } });
    expect(api.paths()).toEqual(['POST /people/u1', 'GET /in-app/sync/u1?version=1.6.5', 'POST /actions']);
    expect(api.calls[0].body).toEqual({ attributes: { email: 'a@b.c', age: '3' } });
    expect(api.calls[2].body).toEqual({ environmentId: ENV, userId: 'u1', name: 'New Session' });
    expect(stored().state.attributes).toEqual({ email: 'a@b.c', age: '3' });
  });

  it('reuses an unexpired config of the same environment, host and user: no sync, no New Session, only changed attributes sent', async () => {
    let fb = await loader();
    fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', attributes: { email: 'a@b.c', age: 3 } });
    vi.setSystemTime(Date.now() + MIN);
    fb = await loader();
    const api = fakeApi();
    await fb.init({
      environmentId: ENV,
      apiHost: HOST,
      userId: 'u1',
      attributes: { email: 'a@b.c', age: '3', plan: 'pro' },
    });
    expect(api.paths()).toEqual(['POST /people/u1']);
    expect(api.calls[0].body).toEqual({ attributes: { plan: 'pro' } });
    fb = await loader();
    const again = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', attributes: { email: 'a@b.c', plan: 'pro' } });
    expect(again.calls).toEqual([]);
  });

  it('a returning visitor with nothing changed: init reads the stored config and does not write it again', async () => {
    let fb = await loader();
    fakeApi({ surveys: [survey('cs')] });
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', attributes: { plan: 'pro' } });
    const before = localStorage.getItem(KEY);
    fb = await loader();
    fakeApi();
    const setItem = vi.spyOn(localStorage, 'setItem');
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', attributes: { plan: 'pro' } });
    expect(setItem.mock.calls.filter(([key]) => key === KEY)).toEqual([]);
    expect(localStorage.getItem(KEY)).toBe(before);
    // a changed attribute is still stored
    fb = await loader();
    fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', attributes: { plan: 'team' } });
    expect(stored().state.attributes).toEqual({ plan: 'team' });
    expect(stored().state.surveys.map((s: { id: string }) => s.id)).toEqual(['cs']);
  });

  it('reads local storage as the script loads, and the config again in init, as it is then', async () => {
    let fb = await loader();
    fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    const fresh = localStorage.getItem(KEY)!;
    localStorage.removeItem(KEY);
    const getItem = vi.spyOn(localStorage, 'getItem');
    fb = await loader();
    expect(getItem).toHaveBeenCalledWith(KEY);
    // another tab stores a config before this page calls init(): it is used, not what the script read
    localStorage.setItem(KEY, fresh);
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(api.calls).toEqual([]);
  });

  it('re-syncs a config that has expired, and says so in debug mode', async () => {
    let fb = await loader();
    fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    vi.setSystemTime(Date.now() + 2 * MIN + 1);
    fb = await loader();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, debug: true });
    expect(api.paths()).toEqual(['GET /in-app/sync?version=1.6.5']);
    expect(api.calls[0].cache).toBe('no-cache');
    const logs = vi.mocked(console.log).mock.calls.map((c) => String(c[0]));
    expect(logs.some((l) => l.includes('[DEBUG] - Config in local storage has expired'))).toBe(true);
  });

  it('a failed first sync sets the error state for 10 minutes, during which init is skipped', async () => {
    let fb = await loader();
    const errorHandler = vi.fn();
    fakeApi({}, () => json({ code: 'internal_server_error', message: 'boom' }, 500));
    await fb.init({ environmentId: ENV, apiHost: HOST, errorHandler });
    expect(stored()).toEqual({ status: 'error', expiresAt: '2024-06-10T12:10:00.000Z' });
    expect(errorHandler).toHaveBeenCalledWith({
      code: 'network_error',
      status: 500,
      message: 'Error syncing with backend',
      url: `${BASE}/in-app/sync?version=1.6.5`,
      responseMessage: 'boom',
    });
    expect(document.getElementById('formbricks-web-container')).toBeNull();
    await fb.track('x');
    expect(errorHandler).toHaveBeenLastCalledWith({
      code: 'not_initialized',
      message: 'Formbricks not initialized. Call initialize() first.',
    });

    vi.setSystemTime(Date.now() + 10 * MIN - 1);
    fb = await loader();
    let api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(api.calls).toEqual([]);

    vi.setSystemTime(Date.now() + 2);
    fb = await loader();
    api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(api.paths()).toEqual(['GET /in-app/sync?version=1.6.5']);
    expect(stored().status).toBe('success');
  });

  it.each([
    ['down', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['invalid JSON', () => new Response('<html>', { status: 200 })],
    ['a wrong shape', () => json({ data: { surveys: 'none' } })],
    ['no data wrapper', () => json({ surveys: [] })],
  ])('treats an API that is %s as a failed sync', async (_name, answer) => {
    const fb = await loader();
    const errorHandler = vi.fn();
    fakeApi({}, answer as () => Response);
    await expect(fb.init({ environmentId: ENV, apiHost: HOST, errorHandler })).resolves.toBeUndefined();
    expect(errorHandler.mock.calls[0][0]).toMatchObject({
      code: 'network_error',
      message: 'Error syncing with backend',
    });
    expect(stored().status).toBe('error');
  });

  it('a second init in the same page does nothing', async () => {
    const fb = await loader();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(api.calls).toHaveLength(1);
    expect(document.querySelectorAll('#formbricks-web-container')).toHaveLength(1);
  });
});

describe('config expiry', () => {
  it('re-syncs every 30 s check once expired; a failing re-sync extends the config and retries later', async () => {
    const fb = await loader();
    let down = false;
    const api = fakeApi({}, () => (down ? json({ message: 'down' }, 503) : undefined));
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(api.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * MIN);
    expect(api.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(api.calls).toHaveLength(2);
    expect(stored().expiresAt).toBe(new Date(Date.now() + 2 * MIN).toISOString());

    down = true;
    await vi.advanceTimersByTimeAsync(2.5 * MIN);
    expect(api.calls).toHaveLength(3);
    expect(stored()).toMatchObject({ status: 'success', expiresAt: new Date(Date.now() + 2 * MIN).toISOString() });
    down = false;
    await vi.advanceTimersByTimeAsync(2 * MIN);
    expect(api.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(api.calls).toHaveLength(4);
    await fb.deinit();
  });
});

describe('commands', () => {
  it('every command before init reports not_initialized to the handler; nothing throws', async () => {
    const fb = await loader();
    fakeApi();
    for (const call of [
      () => fb.track('a'),
      () => fb.setAttribute('a', 1),
      () => fb.setEmail('a@b.c'),
      () => fb.logout(),
      () => fb.reset(),
      () => fb.registerRouteChange(),
      () => fb.setUserId(),
    ]) {
      await expect(call()).resolves.toBeUndefined();
    }
    const warned = vi.mocked(console.warn).mock.calls;
    expect(warned).toHaveLength(7);
    expect(warned[0]).toEqual([
      '🧱 Formbricks - Global error: ',
      { code: 'not_initialized', message: 'Formbricks not initialized. Call initialize() first.' },
    ]);
    expect(String(vi.mocked(console.error).mock.calls[0][0])).toMatch(
      /^🧱 Formbricks - \S+ \[ERROR\] - \{"code":"not_initialized","message":"Formbricks not initialized. Call initialize\(\) first."\}$/,
    );
  });

  it('runs commands one at a time, in order', async () => {
    const fb = await loader();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    api.calls.length = 0;
    void fb.track('one');
    void fb.setAttribute('plan', 'pro');
    await fb.track('two');
    expect(api.calls.map((c) => (c.body as { name?: string }).name ?? 'people')).toEqual(['one', 'people', 'two']);
  });

  it('a throwing custom error handler never reaches the host page', async () => {
    const fb = await loader();
    fakeApi();
    await expect(
      fb.init({
        environmentId: '',
        apiHost: HOST,
        errorHandler: () => {
          throw new Error('host bug');
        },
      }),
    ).resolves.toBeUndefined();
  });

  it('setUserId is no longer supported', async () => {
    const fb = await loader();
    fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    await fb.setUserId();
    expect(vi.mocked(console.error).mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringContaining(
        "[ERROR] - 'setUserId' is no longer supported. Please set the userId in the init call instead.",
      ),
    ]);
  });

  it('getApi before init reports the error and returns nothing; after init it returns the client', async () => {
    const fb = await loader();
    const api = fakeApi();
    expect(fb.getApi()).toBeUndefined();
    expect(vi.mocked(console.warn).mock.calls[0][1]).toEqual(
      new Error('formbricks.init() must be called before getApi()'),
    );
    await fb.init({ environmentId: ENV, apiHost: HOST });
    const r = await fb.getApi()!.client.people.create('u9');
    expect(r.ok).toBe(true);
    expect(api.calls.at(-1)).toMatchObject({
      method: 'POST',
      url: `${BASE}/people`,
      body: { environmentId: ENV, userId: 'u9' },
    });
  });

  it('logout removes the container, the listeners and the stored config; reset syncs again with a New Session', async () => {
    const fb = await loader();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    await fb.reset();
    expect(api.paths()).toEqual([
      'GET /in-app/sync/u1?version=1.6.5',
      'POST /actions',
      'GET /in-app/sync/u1?version=1.6.5',
      'POST /actions',
    ]);
    await fb.logout();
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(document.getElementById('formbricks-web-container')).toBeNull();
    const errorHandler = vi.fn();
    await fb.init({ environmentId: ENV, apiHost: HOST, errorHandler });
    await fb.deinit();
    await fb.track('x');
    expect(errorHandler).toHaveBeenLastCalledWith(expect.objectContaining({ code: 'not_initialized' }));
  });
});

describe('person attributes', () => {
  it('setAttribute needs a userId (missing_person)', async () => {
    const fb = await loader();
    const errorHandler = vi.fn();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, errorHandler });
    await fb.setAttribute('plan', 'pro');
    await fb.setEmail('a@b.c');
    expect(errorHandler.mock.calls).toEqual([
      [
        {
          code: 'missing_person',
          message: 'Unable to update attribute. User identification deactivated. No userId set.',
        },
      ],
      [
        {
          code: 'missing_person',
          message: 'Unable to update attribute. User identification deactivated. No userId set.',
        },
      ],
    ]);
    expect(api.calls).toHaveLength(1);
  });

  it('sends a changed value as a string and skips one equal to the cached value', async () => {
    const fb = await loader();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    api.calls.length = 0;
    await fb.setAttribute('age', 30);
    await fb.setAttribute('age', '30');
    await fb.setEmail('a@b.c');
    expect(api.calls.map((c) => [c.url.replace(BASE, ''), c.body])).toEqual([
      ['/people/u1', { attributes: { age: '30' } }],
      ['/people/u1', { attributes: { email: 'a@b.c' } }],
    ]);
    expect(stored().state.attributes).toEqual({ age: '30', email: 'a@b.c' });
  });

  it('a failed update is a network_error naming the user', async () => {
    const fb = await loader();
    const errorHandler = vi.fn();
    fakeApi({}, (c) => (c.url.includes('/people/') ? json({ message: 'nope' }, 500) : undefined));
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', errorHandler });
    await fb.setAttribute('plan', 'pro');
    expect(errorHandler).toHaveBeenCalledWith({
      code: 'network_error',
      status: 500,
      message: 'Error updating person with userId u1',
      url: `${BASE}/people/u1`,
      responseMessage: 'nope',
    });
    expect(stored().state.attributes).toEqual({});
  });
});
