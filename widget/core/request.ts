export interface NetworkError {
  code: 'network_error';
  status: number;
  message: string;
  url: string;
  responseMessage?: string;
}
export type Result<T> = { ok: true; data: T } | { ok: false; error: NetworkError };

/**
 * One request to the client API: a JSON body when given (POST unless `method` says otherwise), else a
 * GET with `init`. Never throws: a network failure, a non-OK status, a body that is not JSON or has no
 * `data` wrapper all come back as a `network_error`.
 */
export const req = async <T>(url: string, body?: unknown, method = 'POST', init?: RequestInit): Promise<Result<T>> => {
  let status = 0;
  let message = '';
  try {
    const r = await fetch(
      url,
      body ? { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : init,
    );
    status = r.status;
    message = r.statusText;
    const json = await r.json();
    if (r.ok && json?.data !== undefined) return { ok: true, data: json.data as T };
    message = json?.message || message;
  } catch (e) {
    message ||= String(e);
  }
  return { ok: false, error: { code: 'network_error', status, message, url } };
};

/** Unwraps a result, or throws the spec's `network_error` with this call's message. */
export const must = <T>(r: Result<T>, message: string): T => {
  if (r.ok) return r.data;
  throw { ...r.error, message, responseMessage: r.error.message };
};
