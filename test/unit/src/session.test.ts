import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSession } from '../../../src/features/auth/api';
import { clearOnRefChange, createQueryClient } from '../../../src/app/queryClient';
import { useRefStore } from '../../../src/stores/ref';
import { useSessionStore } from '../../../src/stores/session';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const unauthenticated = { code: 16, message: 'request was not authenticated', details: [] };

beforeEach(() => {
  localStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('session check', () => {
  it('clears the session when the check fails', async () => {
    useSessionStore.getState().setSession({ required: false, authenticated: false });
    fetchMock.mockImplementation(async () => json(401, unauthenticated));
    await expect(loadSession()).resolves.toBeNull();
    expect(useSessionStore.getState().session).toBeNull();
  });

  it('is authenticated with the user when auth/v1/self answers', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url) === '/meta/info'
        ? json(200, {})
        : json(200, { method: 'METHOD_OIDC', metadata: { 'io.flipt.auth.oidc.name': 'Grace' } }),
    );
    await loadSession();
    expect(useSessionStore.getState().session).toMatchObject({
      required: true,
      authenticated: true,
      self: { name: 'Grace' },
    });
  });

  it('replaces a stored session with "not required" when auth/v1/self fails', async () => {
    useSessionStore
      .getState()
      .setSession({ required: true, authenticated: true, self: { authMethod: 'METHOD_OIDC', name: 'Grace' } });
    fetchMock.mockImplementation(async (url) =>
      String(url) === '/meta/info' ? json(200, {}) : json(401, unauthenticated),
    );
    await loadSession();
    expect(useSessionStore.getState().session).toEqual({ required: false, authenticated: false });
  });
});

describe('ref', () => {
  it('changing the current ref clears all cached data', () => {
    const client = createQueryClient();
    const stop = clearOnRefChange(client);
    client.setQueryData(['flags', 'default', 'list'], { flags: [] });
    useRefStore.getState().setRef(useRefStore.getState().ref);
    expect(client.getQueryData(['flags', 'default', 'list'])).toEqual({ flags: [] });
    useRefStore.getState().setRef('release-1');
    expect(client.getQueryData(['flags', 'default', 'list'])).toBeUndefined();
    stop();
  });
});
