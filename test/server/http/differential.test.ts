import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { type Config, defaultConfig } from '../../../server/config/index.js';
import { DEMO_ENVIRONMENT_ID } from '../../../server/surveys/demo.js';
import { Api } from '../evaluation/api.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';

/**
 * Every route declared `hot: true`, found in the route table as the app registers it, answers alike on
 * its two paths: the hot path (node:http, ahead of Fastify) and Fastify's route. A seeded script of
 * generated requests (random and hostile bodies, odd and percent-encoded keys, missing and extra
 * fields, bodies over the limit, any content type, every authentication state) is sent twice over
 * real HTTP, once with the hot path on and once with it off; status, headers (but the date and the
 * rate limit's count) and body must be the same, the evaluations' request ids and times aside. A new
 * hot route is covered here without a line of test.
 */

/** mulberry32, so a failing script can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}
type Random = ReturnType<typeof random>;

const TOKEN = 'differential-bootstrap-token';
const SEED = 45;
const REQUESTS_PER_ROUTE = 40;

/** The configurations whose hooks decide whether a hot route may skip Fastify. */
const SETUPS: Record<string, (config: Config) => void> = {
  open: () => {},
  'authentication required': (config) => {
    config.authentication = { required: true, methods: { token: { enabled: true, bootstrap: { token: TOKEN } } } };
  },
  'evaluations rate-limited': (config) => {
    config.rateLimits.evaluation = 1_000_000;
  },
  'browser CORS': (config) => {
    config.cors = { enabled: true, allowedOrigins: ['https://shop.example'], allowedHeaders: ['Content-Type'] };
  },
};

/** Values for each kind of path parameter: known ones, plain unknown ones, and ones a router must decode or refuse. */
const KNOWN: Record<string, string[]> = {
  environmentId: [DEMO_ENVIRONMENT_ID, DEMO_ENVIRONMENT_ID, 'clunknownenvironment0000'],
  key: ['colour', 'switch', 'absent'],
  userId: ['visitor-1', 'visitor-2', 'ann%40example.com'],
};
const ODD_KEYS = [
  'plain-key_1',
  'UPPER,comma',
  '%E2%9C%93',
  'a%2Fb',
  'x'.repeat(300),
  '%00',
  'dot.ted',
  '%20space',
  "quote'",
  '..',
];

function paramValue(rng: Random, name: string): string {
  return rng.next() < 0.6 ? rng.pick(KNOWN[name] ?? ['x']) : rng.pick(ODD_KEYS);
}

const QUERIES = ['', '', '', '?version=1.6.5', '?version', '?pretty', '?version=1&version=2', '?version=%31.6', '?x=1'];

const CONTEXTS = [{}, { plan: 'pro' }, { plan: 'free', n: '1' }, { targetingKey: 'visitor-1', plan: 'pro' }];

/** A JSON value of a random shape: what a fuzzer sends in place of a field. */
function anyValue(rng: Random, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return rng.next() < 0.5;
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, 2 ** 53 + 1]);
    case 3:
      return rng.pick(['', 'colour', 'switch', 'default', '\u0000', '☃', 'x'.repeat(2000)]);
    case 4:
      return rng.pick(['{', '__proto__', 'constructor']);
    case 5:
      return [anyValue(rng, depth + 1), anyValue(rng, depth + 1)];
    default:
      return { [rng.pick(['a', 'plan', '__proto__', 'context'])]: anyValue(rng, depth + 1) };
  }
}

/** A request body: well-formed ones with fields missing, extra or of the wrong type, and hostile texts. */
function body(rng: Random): string | undefined {
  const evaluation: Record<string, unknown> = {
    namespaceKey: rng.pick(['default', 'default', 'absent', undefined]),
    flagKey: rng.pick(['colour', 'switch', 'absent']),
    entityId: rng.pick(['e1', 'e2', '']),
    context: rng.pick(CONTEXTS),
  };
  switch (rng.int(12)) {
    case 0:
      return undefined;
    case 1:
      return rng.pick(['', '   ', '{', 'null', '[]', '42', '"text"', '{"flagKey":', 'not json']);
    case 2:
      return `${'['.repeat(100)}${']'.repeat(100)}`;
    case 3:
      return JSON.stringify({ ...evaluation, entityId: 'x'.repeat(1024 * 1024 + 10) });
    case 4: {
      const missing = { ...evaluation };
      delete missing[rng.pick(Object.keys(missing))];
      return JSON.stringify(missing);
    }
    case 5:
      return JSON.stringify({ ...evaluation, [rng.pick(['extra', 'requestId', '__proto__'])]: anyValue(rng) });
    case 6:
      return JSON.stringify({ ...evaluation, [rng.pick(Object.keys(evaluation))]: anyValue(rng) });
    case 7:
      return JSON.stringify({ requests: [evaluation, { ...evaluation, flagKey: 'switch' }] });
    case 8:
      return JSON.stringify({ context: { ...rng.pick(CONTEXTS), [rng.pick(['flags', 'x'])]: anyValue(rng) } });
    case 9:
      return JSON.stringify({ context: rng.pick(CONTEXTS) });
    case 10:
      return JSON.stringify(anyValue(rng));
    default:
      return JSON.stringify(evaluation);
  }
}

function headers(rng: Random, withBody: boolean): Record<string, string> {
  const sent: Record<string, string> = {};
  const choose = (name: string, values: (string | undefined)[]) => {
    const value = rng.pick(values);
    if (value !== undefined) sent[name] = value;
  };
  if (withBody) {
    choose('content-type', [
      undefined,
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'nonsense',
    ]);
  }
  choose('authorization', [
    undefined,
    undefined,
    `Bearer ${TOKEN}`,
    'Bearer wrong-token',
    'JWT not.a.jwt',
    'Basic xyz',
  ]);
  choose('accept', [undefined, undefined, 'application/json', 'application/json+pretty', '*/*']);
  choose('x-flipt-namespace', [undefined, undefined, 'default', 'absent']);
  choose('if-none-match', [undefined, undefined, '*', '"stale"']);
  choose('user-agent', [undefined, 'Mozilla/5.0 (iPhone)', 'curl/8']);
  choose('origin', [undefined, 'https://shop.example', 'https://evil.example']);
  return sent;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Headers that differ between any two answers: the time, the connection, and a rate limit's count,
 * given only by the request that counted (a visitor's first sync, which creates the person, whichever path runs it first).
 */
const VARYING = new Set([
  'date',
  'connection',
  'keep-alive',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);
/** An evaluation's own id and timing, which differ between any two evaluations. */
const VOLATILE_FIELDS = /"(requestId|timestamp|requestDurationMillis|expiresAt)":\s*("[^"]*"|[0-9.e+-]+)/g;

function comparable(answer: Answer): Answer {
  const { 'content-length': length, ...rest } = answer.headers;
  // The length is that of the body; it differs with the evaluations' volatile fields, so it is checked, not compared.
  if (length !== undefined) expect(Number(length)).toBe(Buffer.byteLength(answer.body));
  return {
    status: answer.status,
    headers: Object.fromEntries(Object.entries(rest).filter(([name]) => !VARYING.has(name))),
    body: answer.body.replace(VOLATILE_FIELDS, '"$1":"…"'),
  };
}

describe.each(dialects)('the hot routes on %s', (dialect) => {
  describe.each(Object.keys(SETUPS))('with %s', (setup) => {
    let app: FastifyInstance;
    let database: TestDatabase;
    let base: string;
    const hotRoutes: { method: HTTPMethods; url: string }[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const config = defaultConfig();
      config.db.url = database.url;
      SETUPS[setup](config);
      app = await buildApp(config, {
        onRoute: (route) => {
          if (route.config?.hot) hotRoutes.push({ method: [route.method].flat()[0] as HTTPMethods, url: route.url });
        },
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      if (setup !== 'authentication required') {
        const api = new Api(app);
        await api.flag('default', 'colour');
        const blue = await api.variant('default', 'colour', 'blue', '{"hex":"#00f"}');
        await api.segment('default', 'pros', [['STRING_COMPARISON_TYPE', 'plan', 'eq', 'pro']]);
        await api.rule('default', 'colour', ['pros'], [[blue.id, 100]], 1);
        await api.flag('default', 'switch', 'BOOLEAN_FLAG_TYPE', true);
      }
    });
    afterAll(async () => {
      await app.close();
      await database.drop();
    });

    /** The answer over HTTP with the hot path on or off, and whether the hot path gave it. */
    const send = async (hot: boolean, url: string, init: RequestInit) => {
      app.hotPath.enabled = hot;
      let handedOver = false;
      const { handle } = app.hotPath;
      const spy = vi.spyOn(app.hotPath, 'handle').mockImplementation((request, response, fallback) => {
        const taken = handle.call(app.hotPath, request, response, (...args) => {
          handedOver = true;
          fallback(...args);
        });
        handedOver ||= !taken;
        return taken;
      });
      try {
        const response = await fetch(base + url, init);
        const answer: Answer = {
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: await response.text(),
        };
        return { answer, taken: hot && !handedOver };
      } finally {
        spy.mockRestore();
        app.hotPath.enabled = true;
      }
    };

    it('answers every generated request alike on both paths', async () => {
      expect(hotRoutes.length).toBeGreaterThanOrEqual(2);
      const rng = random(SEED);
      const taken = new Map<string, number>();
      for (const route of hotRoutes) {
        for (let i = 0; i < REQUESTS_PER_ROUTE; i++) {
          const path = route.url.replace(/:(\w+)/g, (_match, name: string) => paramValue(rng, name));
          const url = path + rng.pick(QUERIES);
          const withBody = route.method !== 'GET';
          const init: RequestInit = {
            method: route.method,
            headers: headers(rng, withBody),
            body: withBody ? body(rng) : undefined,
          };
          const hot = await send(true, url, init);
          const slow = await send(false, url, init);
          const step = `${route.method} ${url} ${JSON.stringify(init.headers)} ${String(init.body).slice(0, 200)}`;
          expect(comparable(hot.answer), step).toEqual(comparable(slow.answer));
          if (hot.taken) taken.set(route.url, (taken.get(route.url) ?? 0) + 1);
        }
      }
      // Not vacuous: where no hook stands in the way, the hot path answered a share of each route's requests.
      if (setup === 'open') for (const { url } of hotRoutes) expect(taken.get(url) ?? 0, url).toBeGreaterThan(0);
      if (setup === 'authentication required') {
        for (const url of taken.keys())
          expect(url, 'only public routes skip the authentication hooks').toMatch(/^\/api\/v[12]\/client\//);
      }
      // Some 700 requests over HTTP: on a loaded machine they take minutes (no time is asserted).
    }, 600_000);
  });
});
