import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from './support.js';
import { openDatabase } from '../../server/db/index.js';
import { client, type Call } from './flipt/client.js';
import { generator, type Random } from '../support/random.js';

/**
 * Fuzzes the Flipt management API with generated bad requests: every write carries at least one
 * poisoned field (wrong type, bad key, NUL, out of range, unknown enum), or targets an id that does not
 * exist, or is refused by a rule (protected namespace, segment in use); plus malformed and oversized
 * bodies, junk paths and query strings. None may answer 5xx, and the data must be exactly as before.
 */
const REQUESTS = 5_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_701);

const TABLES = [
  'namespaces',
  'flags',
  'variants',
  'segments',
  'constraints',
  'rules',
  'rule_segments',
  'distributions',
  'rollouts',
  'rollout_thresholds',
  'rollout_segments',
  'rollout_segment_references',
] as const;

async function snapshot(url: string): Promise<Record<string, string[]>> {
  const database = await openDatabase(url, { migrate: false });
  try {
    const result: Record<string, string[]> = {};
    for (const table of TABLES) {
      const rows = await database.db.selectFrom(table).selectAll().execute();
      result[table] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return result;
  } finally {
    await database.close();
  }
}

type Kind =
  | 'string'
  | 'newKey'
  | 'key'
  | 'number'
  | 'rank'
  | 'percent'
  | 'boolean'
  | 'enum'
  | 'list'
  | 'ids'
  | 'metadata'
  | 'object'
  | 'attachment';

/** Values each kind of field must refuse. */
const POISON: Record<Kind, readonly unknown[]> = {
  string: [123, true, {}, [], ['a'], 'nul\u0000byte', { nested: 'x' }],
  newKey: [123, '', 'has space', 'dot.ted', 'k'.repeat(256), 'ünïcödé', 'nul\u0000', '../..', []],
  key: [123, '', 'k'.repeat(256), 'nul\u0000', {}, false],
  number: ['abc', {}, [], true, 'NaN', '1e999', '', '0x'],
  rank: ['abc', {}, 1.5, 2 ** 40, -(2 ** 40), true, 'one'],
  percent: [-0.01, 100.5, 1e9, 'abc', {}, [], true],
  boolean: ['yes', 2, {}, [], 'TRUE', 0.5],
  enum: ['NOPE', 99, -1, {}, true, 'variant_flag_type', 1.5, ''],
  list: ['str', {}, 5, [1, 2], [{}], [null], ['ok', 3]],
  ids: ['str', {}, 5, [1, 2], ['only-one'], []],
  metadata: [[1], 'x', 5, true],
  object: ['x', 5, [], true],
  attachment: ['{bad', 'not json', 5, {}, '{"a":1}}', '[1,'],
};

/** A valid-looking value of each kind, for the fields that are not poisoned. */
function plausible(kind: Kind, random: Random): unknown {
  switch (kind) {
    case 'string':
      return random.pick(['', 'x', 'Some name', 'ünïcödé ✓']);
    case 'newKey':
    case 'key':
      return random.pick(['fuzz-key', 'a', 'b_c', 'x,y']);
    case 'number':
    case 'rank':
      return random.pick([1, 2, '3']);
    case 'percent':
      return random.pick([0, 50, '12.5']);
    case 'boolean':
      return random.pick([true, false, 'true']);
    case 'enum':
      return random.pick([0, 1]);
    case 'list':
    case 'ids':
      return random.pick([['s1'], ['s1', 's2']]);
    case 'metadata':
      return random.pick([{}, { a: 1 }]);
    case 'object':
      return {};
    case 'attachment':
      return random.pick(['', '{"a":1}']);
  }
}

interface Ids {
  variant: string;
  rule: string;
  distribution: string;
  constraint: string;
  rollout: string;
}

interface Route {
  method: 'POST' | 'PUT';
  path: (ids: Ids) => string;
  fields: Record<string, Kind>;
  /** Routes addressing an entity or parent that may be swapped for an unknown one (→ 404). */
  unknownPath?: () => string;
}

const NS = '/api/v1/namespaces/fz';
const ROUTES: Route[] = [
  { method: 'POST', path: () => '/api/v1/namespaces', fields: { key: 'newKey', name: 'key', description: 'string' } },
  {
    method: 'PUT',
    path: () => NS,
    fields: { name: 'key', description: 'string' },
    unknownPath: () => '/api/v1/namespaces/unknown-ns',
  },
  {
    method: 'POST',
    path: () => `${NS}/flags`,
    fields: {
      key: 'newKey',
      name: 'key',
      description: 'string',
      enabled: 'boolean',
      type: 'enum',
      metadata: 'metadata',
    },
    unknownPath: () => '/api/v1/namespaces/unknown-ns/flags',
  },
  {
    method: 'PUT',
    path: () => `${NS}/flags/f1`,
    fields: {
      name: 'key',
      description: 'string',
      enabled: 'boolean',
      defaultVariantId: 'string',
      metadata: 'metadata',
    },
    unknownPath: () => `${NS}/flags/unknown-flag`,
  },
  {
    method: 'POST',
    path: () => `${NS}/flags/f1/variants`,
    fields: { key: 'key', name: 'string', description: 'string', attachment: 'attachment' },
    unknownPath: () => `${NS}/flags/unknown-flag/variants`,
  },
  {
    method: 'PUT',
    path: (ids) => `${NS}/flags/f1/variants/${ids.variant}`,
    fields: { key: 'key', name: 'string', description: 'string', attachment: 'attachment' },
    unknownPath: () => `${NS}/flags/f1/variants/00000000-0000-4000-8000-000000000000`,
  },
  {
    method: 'POST',
    path: () => `${NS}/segments`,
    fields: { key: 'newKey', name: 'key', description: 'string', matchType: 'enum' },
    unknownPath: () => '/api/v1/namespaces/unknown-ns/segments',
  },
  {
    method: 'PUT',
    path: () => `${NS}/segments/s1`,
    fields: { name: 'key', description: 'string', matchType: 'enum' },
    unknownPath: () => `${NS}/segments/unknown-segment`,
  },
  {
    method: 'POST',
    path: () => `${NS}/segments/s1/constraints`,
    fields: { type: 'enum', property: 'key', operator: 'key', value: 'string', description: 'string' },
  },
  {
    method: 'PUT',
    path: (ids) => `${NS}/segments/s1/constraints/${ids.constraint}`,
    fields: { type: 'enum', property: 'key', operator: 'key', value: 'string', description: 'string' },
  },
  {
    method: 'POST',
    path: () => `${NS}/flags/f1/rules`,
    fields: { segmentKey: 'string', segmentKeys: 'list', segmentOperator: 'enum', rank: 'rank' },
    unknownPath: () => `${NS}/flags/unknown-flag/rules`,
  },
  {
    method: 'PUT',
    path: (ids) => `${NS}/flags/f1/rules/${ids.rule}`,
    fields: { segmentKey: 'string', segmentKeys: 'list', segmentOperator: 'enum' },
    unknownPath: () => `${NS}/flags/f1/rules/unknown-rule`,
  },
  { method: 'PUT', path: () => `${NS}/flags/f1/rules/order`, fields: { ruleIds: 'ids' } },
  {
    method: 'POST',
    path: (ids) => `${NS}/flags/f1/rules/${ids.rule}/distributions`,
    fields: { variantId: 'key', rollout: 'percent' },
    unknownPath: () => `${NS}/flags/f1/rules/unknown-rule/distributions`,
  },
  {
    method: 'PUT',
    path: (ids) => `${NS}/flags/f1/rules/${ids.rule}/distributions/${ids.distribution}`,
    fields: { variantId: 'key', rollout: 'percent' },
    unknownPath: () => `${NS}/flags/f1/rules/unknown-rule/distributions/unknown-distribution`,
  },
  {
    method: 'POST',
    path: () => `${NS}/flags/f2/rollouts`,
    fields: { rank: 'rank', description: 'string', segment: 'object', threshold: 'object' },
    unknownPath: () => `${NS}/flags/unknown-flag/rollouts`,
  },
  {
    method: 'PUT',
    path: (ids) => `${NS}/flags/f2/rollouts/${ids.rollout}`,
    fields: { description: 'string', segment: 'object', threshold: 'object' },
    unknownPath: () => `${NS}/flags/f2/rollouts/unknown-rollout`,
  },
  { method: 'PUT', path: () => `${NS}/flags/f2/rollouts/order`, fields: { rolloutIds: 'ids' } },
];

/** Requests refused by a rule rather than by their shape. */
const REFUSED: [string, string, string[]?][] = [
  ['DELETE', '/api/v1/namespaces/default'],
  ['DELETE', '/api/v1/namespaces/fz'],
  ['DELETE', `${NS}/segments/s1`],
  ['DELETE', `${NS}/segments/s2`],
  ['DELETE', '/api/v1/namespaces/unknown-ns'],
  // Creates of keys that exist.
  ['POST', '/api/v1/namespaces', ['fz', 'default']],
  ['POST', `${NS}/flags`, ['f1', 'f2']],
  ['POST', `${NS}/segments`, ['s1', 's2']],
  ['POST', '/api/v1/flags', ['legacy']],
];

const JUNK_SEGMENTS = [
  '%00',
  '%ff',
  'x'.repeat(300),
  'y'.repeat(2000),
  '😀',
  '%E2%80%AE',
  '*',
  ';drop table flags',
  '%25',
  ' ',
  'a b',
];

function poisonedBody(route: Route, random: Random): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const names = Object.keys(route.fields);
  for (const name of names) if (random.next() < 0.7) body[name] = plausible(route.fields[name], random);
  const poisoned = 1 + random.int(Math.min(3, names.length));
  for (let i = 0; i < poisoned; i++) {
    const name = random.pick(names);
    const spelling = random.next() < 0.3 ? snake(name) : name;
    delete body[name];
    body[spelling] = random.pick(POISON[route.fields[name]]);
  }
  if (route.fields.segment && random.next() < 0.5) {
    // A nested rule body that is itself broken.
    const nested = random.pick([
      { segment: { segmentKey: 'k'.repeat(300) } },
      { segment: { segmentKeys: 'str' } },
      { segment: { value: 'maybe', segmentKey: 's1' } },
      { segment: { segmentKey: 's1', segmentKeys: ['s2'] } },
      { threshold: { percentage: 101 } },
      { threshold: { percentage: 'x', value: true } },
      { segment: { segmentKey: 's1' }, threshold: { percentage: 5 } },
    ]);
    Object.assign(body, nested);
    delete body[nested.segment ? 'threshold' : 'segment'];
    if (nested.segment && nested.threshold) Object.assign(body, nested);
  }
  return body;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** One generated bad request: [method, url, body or raw text, content type]. */
function badRequest(random: Random, ids: Ids): [string, string, unknown, string?] {
  const family = random.int(10);
  const route = random.pick(ROUTES);
  switch (family) {
    case 0:
    case 1:
    case 2:
    case 3:
      return [route.method, route.path(ids), poisonedBody(route, random)];
    case 4: {
      // A well-formed body aimed at something that does not exist.
      const target = random.pick(ROUTES.filter((r) => r.unknownPath));
      const body = Object.fromEntries(
        Object.entries(target.fields).map(([name, kind]) => [name, plausible(kind, random)]),
      );
      if (target.fields.segment) Object.assign(body, { segment: { segmentKey: 's1' }, threshold: undefined });
      return [target.method, target.unknownPath!(), body];
    }
    case 5: {
      // Not a JSON object at all.
      const raw = random.pick([
        '{',
        '{"key": ',
        'null',
        '[]',
        '[1,2,3]',
        '"string"',
        '42',
        'true',
        '{"a":1}{"b":2}',
        '\u0000\u0001',
        '{"key":"a",}',
        "{'key':'a'}",
        '['.repeat(5000) + ']'.repeat(5000),
        '{"key":"\\ud800",}',
      ]);
      return [
        route.method,
        route.path(ids),
        raw,
        random.pick([
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/octet-stream',
        ]),
      ];
    }
    case 6: {
      const [method, url, existing] = random.pick(REFUSED);
      return [method, url, existing ? { key: random.pick(existing), name: 'Duplicate' } : undefined];
    }
    case 7: {
      // Deletes of ids that do not exist change nothing.
      const url = random.pick([
        `${NS}/flags/unknown-flag`,
        `${NS}/flags/f1/variants/unknown-variant`,
        `${NS}/flags/f1/rules/unknown-rule`,
        `${NS}/flags/f1/rules/${ids.rule}/distributions/${ids.distribution}?variantId=unknown-variant`,
        `${NS}/flags/f1/rules/${ids.rule}/distributions/${ids.distribution}`,
        `${NS}/flags/f2/rollouts/unknown-rollout`,
        `${NS}/segments/unknown-segment`,
        `${NS}/segments/s1/constraints/unknown-constraint`,
        `/api/v1/flags/unknown-flag`,
        `/api/v1/segments/unknown-segment`,
      ]);
      return ['DELETE', url, undefined];
    }
    case 8: {
      // Junk in paths, methods and query strings.
      const junk = random.pick(JUNK_SEGMENTS);
      const url = random.pick([
        `/api/v1/namespaces/${junk}`,
        `/api/v1/namespaces/${junk}/flags/${junk}`,
        `${NS}/flags/${junk}/rules/${junk}`,
        `${NS}/segments/${junk}/constraints`,
        `${NS}/flags?limit=${junk}`,
        `${NS}/flags?limit=2&pageToken=${encodeURIComponent(junk)}`,
        `${NS}/flags?offset=${random.pick(['1', '-1', 'x', '99999999999'])}`,
        `${NS}/segments?limit=${random.pick(['-5', '1.5', '1e3x', '2147483648'])}`,
        `/api/v1/${junk}`,
      ]);
      return [
        random.pick(['GET', 'PATCH', 'PUT', 'POST', 'DELETE', 'OPTIONS']),
        url,
        random.next() < 0.5 ? { key: junk, name: junk } : undefined,
      ];
    }
    default: {
      // Huge strings: over the column limits (400), or the whole body over 1 MiB (413) now and then.
      const huge = random.int(50) === 0 ? 'x'.repeat(1_100_000) : 'x'.repeat(256 + random.int(200_000));
      const target = random.pick(
        ROUTES.filter((r) => Object.values(r.fields).some((kind) => kind === 'key' || kind === 'newKey')),
      );
      const field = random.pick(
        Object.keys(target.fields).filter((name) => ['key', 'newKey'].includes(target.fields[name])),
      );
      const body = Object.fromEntries(
        Object.entries(target.fields).map(([name, kind]) => [name, plausible(kind, random)]),
      );
      return [target.method, target.path(ids), { ...body, [field]: huge }];
    }
  }
}

describe.each(dialects)('fuzzing the Flipt API on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  let ids: Ids;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    call = client(t.app);
    await call('POST', '/api/v1/namespaces', { key: 'fz', name: 'Fuzz' });
    await call('POST', `${NS}/flags`, { key: 'f1', name: 'F1', enabled: true, metadata: { team: 'a' } });
    await call('POST', `${NS}/flags`, { key: 'f2', name: 'F2', type: 'BOOLEAN_FLAG_TYPE' });
    await call('POST', '/api/v1/flags', { key: 'legacy', name: 'Legacy' });
    const variant = (await call('POST', `${NS}/flags/f1/variants`, { key: 'v1', attachment: '{"a":1}' })).body.id;
    await call('POST', `${NS}/flags/f1/variants`, { key: 'v2' });
    await call('PUT', `${NS}/flags/f1`, {
      name: 'F1',
      enabled: true,
      defaultVariantId: variant,
      metadata: { team: 'a' },
    });
    await call('POST', `${NS}/segments`, { key: 's1', name: 'S1' });
    await call('POST', `${NS}/segments`, { key: 's2', name: 'S2', matchType: 'ANY_MATCH_TYPE' });
    const constraint = (
      await call('POST', `${NS}/segments/s1/constraints`, {
        type: 'STRING_COMPARISON_TYPE',
        property: 'plan',
        operator: 'eq',
        value: 'pro',
      })
    ).body.id;
    const rule = (
      await call('POST', `${NS}/flags/f1/rules`, {
        segmentKeys: ['s1', 's2'],
        segmentOperator: 'AND_SEGMENT_OPERATOR',
        rank: 1,
      })
    ).body.id;
    await call('POST', `${NS}/flags/f1/rules`, { segmentKey: 's1', rank: 2 });
    const distribution = (
      await call('POST', `${NS}/flags/f1/rules/${rule}/distributions`, { variantId: variant, rollout: 60 })
    ).body.id;
    const rollout = (
      await call('POST', `${NS}/flags/f2/rollouts`, { rank: 1, segment: { segmentKey: 's2', value: true } })
    ).body.id;
    await call('POST', `${NS}/flags/f2/rollouts`, { rank: 2, threshold: { percentage: 30, value: true } });
    ids = { variant, rule, distribution, constraint, rollout };
  });
  afterAll(() => t.close());

  it(`answers ${REQUESTS} bad requests without a 5xx and without changing any data (seed ${SEED})`, {
    timeout: 600_000,
  }, async () => {
    const before = await snapshot(t.database.url);
    const random = generator(SEED);
    const statuses = new Map<number, number>();
    const serverErrors: string[] = [];
    const badShapes: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const [method, url, body, contentType] = badRequest(random, ids);
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: contentType ? { 'content-type': contentType } : {},
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const describe = `${method} ${url.slice(0, 120)} ${typeof body === 'string' ? body.slice(0, 80) : JSON.stringify(body)?.slice(0, 160)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
      if (response.statusCode >= 500) serverErrors.push(describe);
      if (response.statusCode >= 400) {
        const parsed = (() => {
          try {
            return JSON.parse(response.body);
          } catch {
            return undefined;
          }
        })();
        if (
          typeof parsed?.code !== 'number' ||
          typeof parsed?.message !== 'string' ||
          parsed.message === '' ||
          !Array.isArray(parsed.details)
        ) {
          badShapes.push(describe);
        }
      }
    }
    console.log(`fuzz on ${dialect}: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    expect(serverErrors.slice(0, 10)).toEqual([]);
    expect(badShapes.slice(0, 10)).toEqual([]);
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);

    expect((await call('GET', '/health')).status).toBe(200);
    expect(await snapshot(t.database.url)).toEqual(before);
  });
});
