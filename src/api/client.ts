/**
 * The console's one fetch client: JSON headers, no-store caching, and errors normalised into
 * ApiError (spec §7-§8). Every feature's queries call `request`.
 */
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

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    cache: 'no-store',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  if (!response.ok) {
    if (!isJson) throw new ApiError(UNEXPECTED_ERROR, response.status);
    const payload = (await response.json().catch(() => ({}))) as { message?: unknown };
    throw new ApiError(typeof payload.message === 'string' ? payload.message : UNEXPECTED_ERROR, response.status);
  }
  return (isJson ? response.json() : response.text()) as Promise<T>;
}
