/**
 * The console's one fetch client: JSON content and accept headers, no-store caching,
 * the stored CSRF token, the `reference` query parameter on api/v1 calls, 401 handling and errors
 * normalised into ApiError. Every feature's queries go through `request`.
 */
import { isWebUrl } from '../lib/format';
import { clearStoredSession, storedIssuer } from '../stores/session';
import { useRefStore } from '../stores/ref';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export const UNEXPECTED_ERROR = 'An unexpected error occurred.';
export const CSRF_STORAGE_KEY = 'x-csrf-token';
const CSRF_HEADER = 'x-csrf-token';

export const API = '/api/v1';
export const AUTH = '/auth/v1';
export const EVALUATE = '/evaluate/v1';
export const META = '/meta';
export const INTERNAL = '/internal/v1';

export interface RequestOptions {
  /** meta calls send no auth headers (no CSRF token) and store the CSRF token they receive. */
  meta?: boolean;
  /** The session check handles 401 itself: it means "authentication not required". */
  passUnauthorized?: boolean;
  /** Headers beyond the client's own. */
  headers?: Record<string, string>;
}

function withReference(path: string): string {
  const ref = useRefStore.getState().ref;
  if (!ref || !path.startsWith(API + '/')) return path;
  return `${path}${path.includes('?') ? '&' : '?'}reference=${encodeURIComponent(ref)}`;
}

/** What the browser does after a 401: go to the session's issuer (an http(s) URL only), else reload. Replaceable in tests. */
export const unauthorized = {
  redirect(issuer: string | undefined) {
    if (issuer && isWebUrl(issuer)) window.location.href = issuer;
    else window.location.reload();
  },
};

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    ...options.headers,
  };
  const csrf = localStorage.getItem(CSRF_STORAGE_KEY);
  if (csrf && !options.meta) headers[CSRF_HEADER] = csrf;
  const response = await fetch(withReference(path), {
    method,
    cache: 'no-store',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (options.meta) {
    const token = response.headers.get('X-CSRF-Token');
    if (token) localStorage.setItem(CSRF_STORAGE_KEY, token);
  }
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  if (!response.ok) {
    if (response.status === 401 && !options.passUnauthorized) {
      const issuer = storedIssuer();
      localStorage.removeItem(CSRF_STORAGE_KEY);
      clearStoredSession();
      unauthorized.redirect(issuer);
    }
    if (!isJson) throw new ApiError(UNEXPECTED_ERROR, response.status);
    const payload: unknown = await response.json().catch(() => ({}));
    throw new ApiError(errorMessage(payload, UNEXPECTED_ERROR), response.status);
  }
  return (isJson ? response.json() : response.text()) as Promise<T>;
}

/**
 * Normalises anything thrown or returned as an error to a message: an object's `message` string,
 * a response body's `data.message`, otherwise the JSON text of the value.
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const { message, data } = error as { message?: unknown; data?: { message?: unknown } };
    if (typeof message === 'string') return message;
    if (data && typeof data.message === 'string') return data.message;
  }
  return fallback ?? JSON.stringify(error);
}
