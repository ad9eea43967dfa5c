import { createServer, type RequestListener, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FastAnswer, FastPath } from '../../../server/evaluation/fast-path.js';

const silent = { level: 'info', debug: () => {}, error: () => {} } as never;

/** GET routes of the fast path, on a bare node:http server whose other requests (and the failed ones) a fallback answers. */
describe('fast path GET routes', () => {
  const fastPath = new FastPath(1024, silent);
  let server: Server;
  let base: string;
  const fallback: RequestListener = (request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`fallback ${request.url}`);
  };
  const answer = (text: string): FastAnswer => ({
    status: 200,
    headers: ['content-type', 'text/plain'],
    body: Buffer.from(text),
  });

  beforeAll(async () => {
    fastPath.addGet('/sync/:environmentId', ({ params }) =>
      params.environmentId === 'unknown' ? undefined : answer(`kept ${params.environmentId}`),
    );
    fastPath.addGet('/sync/:environmentId/:userId', ({ params, query }) =>
      params.userId === 'failing'
        ? Promise.reject(new Error('the read failed'))
        : new Promise((resolve) => setTimeout(() => resolve(answer(`read ${params.userId} ${query}`)), 5)),
    );
    server = createServer(
      (request, response) => fastPath.handle(request, response, fallback) || fallback(request, response),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  const text = async (path: string) => (await fetch(base + path)).text();

  it('matches every parameter as a plain key, whatever the query, and answers synchronously or after reads', async () => {
    expect(await text('/sync/env1')).toBe('kept env1');
    expect(await text('/sync/env1?x=1')).toBe('kept env1');
    expect(await text('/sync/env1/user-7?version=1.6.5')).toBe('read user-7 version=1.6.5');
  });

  it('hands on what it does not take: undefined answers, other paths, keys needing decoding', async () => {
    expect(await text('/sync/unknown')).toBe('fallback /sync/unknown');
    expect(await text('/sync/env1/user-7/more')).toBe('fallback /sync/env1/user-7/more');
    expect(await text('/sync/env1/ann%40example.com')).toBe('fallback /sync/env1/ann%40example.com');
    expect(await text('/sync/')).toBe('fallback /sync/');
  });

  it('hands a request whose reads failed to the fallback, which answers it', async () => {
    expect(await text('/sync/env1/failing')).toBe('fallback /sync/env1/failing');
  });
});
