import type { FastifyInstance } from 'fastify';

export interface Answer {
  status: number;
  body: any;
  text: string;
}

/** A small JSON client over `app.inject()`: `call('POST', url, body)` → status and parsed body. */
export function client(app: FastifyInstance) {
  return async function call(method: string, url: string, body?: unknown): Promise<Answer> {
    const response = await app.inject({
      method: method as 'GET',
      url,
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      parsed = undefined;
    }
    return { status: response.statusCode, body: parsed, text: response.body };
  };
}

export type Call = ReturnType<typeof client>;

/** Flipt's error body. */
export const error = (code: number, message: string) => ({ code, message, details: [] });

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6})?Z$/;
