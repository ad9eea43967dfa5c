import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { comparable, dialects } from '../support.js';
import { CLIENT, startSurveyApp, type SurveyTestApp } from './support.js';

/**
 * The identified sync of a kept environment is answered ahead of Fastify (real HTTP); these check it
 * answers what Fastify's route answers, from the person's rows as they are at that moment.
 */
describe.each(dialects)('the identified sync on the fast path, on %s', (dialect) => {
  let t: SurveyTestApp;
  let base: string;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => t.close());

  /** An answer over HTTP, and whether the fast path gave it (rather than handing it to Fastify). */
  const overHttp = async (path: string) => {
    const fastPath = t.app.hotPath;
    const handle = fastPath.handle.bind(fastPath);
    let byFastify = false;
    const spy = vi.spyOn(fastPath, 'handle').mockImplementation((request, response, fallback) => {
      const taken = handle(request, response, (...args) => {
        byFastify = true;
        return fallback(...args);
      });
      if (!taken) byFastify = true;
      return taken;
    });
    try {
      const response = await fetch(base + path, { headers: { 'user-agent': 'Mozilla/5.0 (iPhone)' } });
      return { status: response.status, headers: response.headers, body: await response.json(), fast: !byFastify };
    } finally {
      spy.mockRestore();
    }
  };
  const throughFastify = (path: string) => t.request('GET', path, undefined, { 'user-agent': 'Mozilla/5.0 (iPhone)' });

  it("answers as Fastify's route does, with the client API's headers", async () => {
    // The first sync reads the environment through Fastify; later ones find it kept.
    await overHttp(`${CLIENT}/in-app/sync`);
    // A visitor's first sync makes them a person, on Fastify's route, where it counts as a survey write.
    expect((await overHttp(`${CLIENT}/in-app/sync/fast-visitor?version=1.6.5`)).fast).toBe(false);
    for (const path of [`${CLIENT}/in-app/sync/fast-visitor?version=1.6.5`, `${CLIENT}/in-app/sync/fast-visitor`]) {
      const answer = await overHttp(path);
      expect(answer.status).toBe(200);
      expect(answer.fast, path).toBe(true);
      const routed = await throughFastify(path);
      expect(answer.body).toEqual(routed.body);
      expect(comparable(Object.fromEntries(answer.headers)), path).toEqual(comparable(routed.headers));
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    // Clients before 1.6 (no version) read the person from the sync.
    expect((await overHttp(`${CLIENT}/in-app/sync/fast-visitor`)).body.data.person).toMatchObject({
      userId: 'fast-visitor',
      attributes: {},
    });
    expect((await overHttp(`${CLIENT}/in-app/sync/fast-visitor?version=1.6.5`)).body.data.person).toBeUndefined();
  });

  it('reads the person as they are now: attributes written a moment before are in the next sync', async () => {
    await overHttp(`${CLIENT}/in-app/sync`);
    const update = await t.request('POST', `${CLIENT}/people/changing-visitor`, { attributes: { plan: 'pro' } });
    expect(update.status).toBe(200);
    const first = await overHttp(`${CLIENT}/in-app/sync/changing-visitor`);
    expect(first.fast).toBe(true);
    expect(first.body.data.person.attributes).toEqual({ plan: 'pro' });
    await t.request('POST', `${CLIENT}/people/changing-visitor`, { attributes: { plan: 'team', seats: 3 } });
    expect((await overHttp(`${CLIENT}/in-app/sync/changing-visitor`)).body.data.person.attributes).toEqual({
      plan: 'team',
      seats: '3',
    });
  });

  it('leaves user ids that need percent-encoding, and invalid ones, to Fastify', async () => {
    await overHttp(`${CLIENT}/in-app/sync`);
    const email = await overHttp(`${CLIENT}/in-app/sync/ann%40example.com`);
    expect(email.status).toBe(200);
    expect(email.fast).toBe(false);
    expect(email.body.data.person.userId).toBe('ann@example.com');
    const tooLong = await overHttp(`${CLIENT}/in-app/sync/${'x'.repeat(256)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe('bad_request');
  });
});
