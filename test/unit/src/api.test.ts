import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  CSRF_STORAGE_KEY,
  UNEXPECTED_ERROR,
  errorMessage,
  request,
  unauthorized,
} from '../../../src/api/client';
import { useRefStore } from '../../../src/stores/ref';
import { useSessionStore } from '../../../src/stores/session';
import { logout } from '../../../src/features/auth/api';
import { isWebUrl } from '../../../src/lib/format';

const fetchMock = vi.fn<typeof fetch>();

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const contentType = typeof body === 'string' ? 'text/plain' : 'application/json';
  return new Response(text, { status, headers: { 'content-type': contentType, ...headers } });
}

function sent(call = 0): { url: string; init: RequestInit; headers: Record<string, string> } {
  const [url, init] = fetchMock.mock.calls[call];
  return { url: String(url), init: init!, headers: init!.headers as Record<string, string> };
}

beforeEach(() => {
  localStorage.clear();
  useRefStore.setState({ ref: '' });
  useSessionStore.setState({ session: null });
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => vi.unstubAllGlobals());

describe('request', () => {
  it('sends JSON content and accept headers, no-store caching and the JSON body', async () => {
    fetchMock.mockImplementation(async () => answer(200, { key: 'a' }));
    await expect(request('POST', '/api/v1/namespaces', { key: 'a' })).resolves.toEqual({ key: 'a' });
    const { url, init, headers } = sent();
    expect(url).toBe('/api/v1/namespaces');
    expect(init).toMatchObject({ method: 'POST', cache: 'no-store', body: '{"key":"a"}' });
    expect(headers).toEqual({ 'Content-Type': 'application/json', Accept: 'application/json' });
  });

  it('adds the stored CSRF token, except on meta calls, which store the token they receive', async () => {
    fetchMock.mockImplementation(async () => answer(200, {}));
    await request('GET', '/api/v1/namespaces');
    expect(sent(0).headers).not.toHaveProperty('x-csrf-token');

    fetchMock.mockImplementation(async () => answer(200, {}, { 'X-CSRF-Token': 'masked-token' }));
    await request('GET', '/meta/info', undefined, { meta: true });
    expect(sent(1).headers).not.toHaveProperty('x-csrf-token');
    expect(localStorage.getItem(CSRF_STORAGE_KEY)).toBe('masked-token');

    fetchMock.mockImplementation(async () => answer(200, {}));
    await request('DELETE', '/api/v1/namespaces/x');
    expect(sent(2).headers['x-csrf-token']).toBe('masked-token');
    await request('GET', '/meta/config', undefined, { meta: true });
    expect(sent(3).headers).not.toHaveProperty('x-csrf-token');
  });

  it('adds the reference parameter to api/v1 calls only, when a ref is set', async () => {
    fetchMock.mockImplementation(async () => answer(200, {}));
    await request('GET', '/api/v1/namespaces/default/flags');
    useRefStore.getState().setRef('feature/x');
    await request('GET', '/api/v1/namespaces/default/flags');
    await request('GET', '/api/v1/namespaces?limit=5');
    await request('POST', '/evaluate/v1/boolean', {});
    await request('GET', '/meta/info', undefined, { meta: true });
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/v1/namespaces/default/flags',
      '/api/v1/namespaces/default/flags?reference=feature%2Fx',
      '/api/v1/namespaces?limit=5&reference=feature%2Fx',
      '/evaluate/v1/boolean',
      '/meta/info',
    ]);
  });

  it('turns a JSON error into an ApiError with the body message and the status', async () => {
    fetchMock.mockImplementation(async () =>
      answer(400, { code: 3, message: 'flag "default/a" is not unique', details: [] }),
    );
    const error = await request('POST', '/api/v1/namespaces/default/flags', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'flag "default/a" is not unique', status: 400 });
  });

  it('turns a non-JSON error into "An unexpected error occurred." with the status', async () => {
    fetchMock.mockImplementation(async () => answer(403, 'Forbidden - CSRF token invalid'));
    await expect(request('PUT', '/api/v1/namespaces/x', {})).rejects.toMatchObject({
      message: UNEXPECTED_ERROR,
      status: 403,
    });
  });

  it('on 401 removes the CSRF token and session and goes to the issuer, else reloads', async () => {
    const redirect = vi.spyOn(unauthorized, 'redirect').mockImplementation(() => {});
    localStorage.setItem(CSRF_STORAGE_KEY, 'token');
    useSessionStore.getState().setSession({
      required: true,
      authenticated: true,
      self: { authMethod: 'METHOD_OIDC', name: 'Ada', issuer: 'https://idp.example.com' },
    });
    fetchMock.mockImplementation(async () =>
      answer(401, { code: 16, message: 'request was not authenticated', details: [] }),
    );
    await expect(request('GET', '/api/v1/namespaces')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(CSRF_STORAGE_KEY)).toBeNull();
    expect(useSessionStore.getState().session).toBeNull();
    expect(redirect).toHaveBeenLastCalledWith('https://idp.example.com');

    await expect(request('GET', '/api/v1/namespaces')).rejects.toMatchObject({ status: 401 });
    expect(redirect).toHaveBeenLastCalledWith(undefined);
  });

  it('logs out to the issuer only when it is an http(s) URL (a javascript: issuer would run)', async () => {
    fetchMock.mockImplementation(async () => answer(200, {}));
    expect(isWebUrl('https://idp.example.com/logout')).toBe(true);
    for (const issuer of [
      'javascript:alert(document.domain)',
      'data:text/html,x',
      'JAVASCRIPT:alert(1)',
      'not a url',
    ]) {
      expect(isWebUrl(issuer)).toBe(false);
      window.location.hash = '#/flags';
      useSessionStore.getState().setSession({
        required: true,
        authenticated: true,
        self: { authMethod: 'METHOD_OIDC', name: 'Ada', issuer },
      });
      await logout();
      expect(window.location.hash).toBe('#/login');
      expect(window.location.protocol).not.toBe('javascript:');
    }
  });

  it('lets the session check handle a 401 itself', async () => {
    const redirect = vi.spyOn(unauthorized, 'redirect').mockImplementation(() => {});
    redirect.mockClear();
    localStorage.setItem(CSRF_STORAGE_KEY, 'token');
    fetchMock.mockImplementation(async () =>
      answer(401, { code: 16, message: 'request was not authenticated', details: [] }),
    );
    await expect(request('GET', '/auth/v1/self', undefined, { passUnauthorized: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(redirect).not.toHaveBeenCalled();
    expect(localStorage.getItem(CSRF_STORAGE_KEY)).toBe('token');
  });
});

describe('errorMessage', () => {
  it("uses an object's message string", () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage({ message: 'plain' })).toBe('plain');
  });

  it("uses a response body's data message", () => {
    expect(errorMessage({ status: 400, data: { message: 'invalid field key' } })).toBe('invalid field key');
  });

  it('falls back to the JSON text of the value', () => {
    expect(errorMessage({ status: 500 })).toBe('{"status":500}');
    expect(errorMessage({ message: 42 })).toBe('{"message":42}');
  });
});
