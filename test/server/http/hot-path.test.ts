import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protectRoutes } from '../../../server/auth/enforce.js';
import { defaultConfig } from '../../../server/config/index.js';
import { jsonAnswer } from '../../../server/http/answer.js';
import { HotPath } from '../../../server/http/hot-path.js';
import { HAND_OVER, RouteTable } from '../../../server/route-definitions.js';

const plain = <S extends v.GenericSchema>(schema: S, input: unknown) => v.parse(schema, input);

/**
 * Hot GET routes on a bare Fastify app whose server puts the hot path first: which requests it takes,
 * and which it hands to Fastify's route (each answer says which path gave it).
 */
describe('hot GET routes', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    let hotPath: HotPath | undefined;
    app = Fastify({
      serverFactory: (handler) =>
        createServer((request, response) => hotPath?.handle(request, response, handler) || handler(request, response)),
      routerOptions: { ignoreTrailingSlash: true },
    });
    hotPath = new HotPath(app.log);
    hotPath.install(app, defaultConfig());
    protectRoutes(app, 'public');
    const routes = new RouteTable(app, plain);
    const path = (onHotPath: boolean) => (onHotPath ? 'hot' : 'fastify');
    routes.add({
      method: 'GET',
      url: '/sync/:environmentId',
      params: v.object({ environmentId: v.string() }),
      hot: true,
      handler: ({ params }, request) =>
        params.environmentId === 'unknown' && request.onHotPath
          ? HAND_OVER
          : jsonAnswer(200, JSON.stringify(`${path(request.onHotPath)} ${params.environmentId}`)),
    });
    routes.add({
      method: 'GET',
      url: '/sync/:environmentId/:userId',
      params: v.object({ environmentId: v.string(), userId: v.pipe(v.string(), v.maxLength(8)) }),
      query: v.object({ version: v.optional(v.string()) }),
      hot: true,
      handler: async ({ params, query }, request) => {
        if (params.userId === 'failing' && request.onHotPath) throw new Error('the read failed');
        await new Promise((resolve) => setTimeout(resolve, 5));
        return jsonAnswer(200, JSON.stringify(`${path(request.onHotPath)} ${params.userId} ${query.version}`));
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => app.close());

  const text = async (path: string) => {
    const response = await fetch(base + path);
    return response.status === 200 ? response.json() : response.status;
  };

  it('takes exact paths whose parameters are plain keys and a plain query, answering at once or after reads', async () => {
    expect(await text('/sync/env1')).toBe('hot env1');
    expect(await text('/sync/env1/user-7?version=1.6.5')).toBe('hot user-7 1.6.5');
    expect(await text('/sync/env1/user-7')).toBe('hot user-7 undefined');
  });

  it('leaves to Fastify what it cannot answer alike: keys to decode, a query on a route that reads none, odd queries', async () => {
    expect(await text('/sync/env1/ann%40ex')).toBe('fastify ann@ex undefined');
    expect(await text('/sync/env1?x=1')).toBe('fastify env1');
    expect(await text('/sync/env1/user-7?version=1%2E6')).toBe('fastify user-7 1.6');
    expect(await text('/sync/env1/')).toBe('fastify env1');
  });

  it('hands to Fastify what its handler hands over, a failure without an error shape, and a refused input', async () => {
    expect(await text('/sync/unknown')).toBe('fastify unknown');
    expect(await text('/sync/env1/failing')).toBe('fastify failing undefined');
    // Fastify's route refuses it too (the plain parser's 500 here), as the hot path did not answer it.
    expect(await text('/sync/env1/much-too-long')).toBe(500);
  });
});
