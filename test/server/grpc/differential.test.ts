import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { instant, startGrpc, toRestJson } from './client.js';

/**
 * The gRPC API against the REST API, request by request (#35). Two apps on two new databases of the
 * same dialect run one script: app R answers every step over REST, app G over gRPC. Each step's answer
 * must be the same once the ids each app generated are named by the step that created them and
 * creation times are left out (they differ between two apps). The reads (Get, List, the evaluations,
 * the snapshot, OFREP, metadata) are also sent over REST to app G, whose answer must equal the gRPC
 * one exactly, times and ids included. Errors: the gRPC status code must be the REST body's `code`,
 * the details its `message`, and the HTTP status the one Flipt's gateway gives that code.
 *
 * The data are generated (a seeded PRNG): namespaces, segments with constraints, variant flags with
 * variants, rules and distributions, boolean flags with threshold and segment rollouts, then updates,
 * reorderings, reads, paged listings, evaluations of generated contexts on every evaluation RPC, and
 * deletes. The error cases are the REST contract tests' (test/server/flipt/) that a protobuf message can
 * express (a JSON `"rank": "0x10"` or a body of 1 MB has no protobuf form).
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

const FLIPT = 'flipt.Flipt';
const EVALUATION = 'flipt.evaluation.EvaluationService';
const DATA = 'flipt.evaluation.DataService';
const OFREP = 'flipt.ofrep.OFREPService';
const META = 'flipt.meta.MetadataService';

/** Flipt's gateway routes (rpc/flipt/flipt.yaml and the other services' annotations): method, path, body or query. */
const NS = '/api/v1/namespaces/{namespaceKey}';
const ROUTES: Record<string, [method: string, path: string]> = {
  [`${FLIPT}/Evaluate`]: ['POST', `${NS}/evaluate`],
  [`${FLIPT}/BatchEvaluate`]: ['POST', `${NS}/batch-evaluate`],
  [`${FLIPT}/GetNamespace`]: ['GET', '/api/v1/namespaces/{key}'],
  [`${FLIPT}/ListNamespaces`]: ['GET', '/api/v1/namespaces'],
  [`${FLIPT}/CreateNamespace`]: ['POST', '/api/v1/namespaces'],
  [`${FLIPT}/UpdateNamespace`]: ['PUT', '/api/v1/namespaces/{key}'],
  [`${FLIPT}/DeleteNamespace`]: ['DELETE', '/api/v1/namespaces/{key}'],
  [`${FLIPT}/GetFlag`]: ['GET', `${NS}/flags/{key}`],
  [`${FLIPT}/ListFlags`]: ['GET', `${NS}/flags`],
  [`${FLIPT}/CreateFlag`]: ['POST', `${NS}/flags`],
  [`${FLIPT}/UpdateFlag`]: ['PUT', `${NS}/flags/{key}`],
  [`${FLIPT}/DeleteFlag`]: ['DELETE', `${NS}/flags/{key}`],
  [`${FLIPT}/CreateVariant`]: ['POST', `${NS}/flags/{flagKey}/variants`],
  [`${FLIPT}/UpdateVariant`]: ['PUT', `${NS}/flags/{flagKey}/variants/{id}`],
  [`${FLIPT}/DeleteVariant`]: ['DELETE', `${NS}/flags/{flagKey}/variants/{id}`],
  [`${FLIPT}/GetRule`]: ['GET', `${NS}/flags/{flagKey}/rules/{id}`],
  [`${FLIPT}/ListRules`]: ['GET', `${NS}/flags/{flagKey}/rules`],
  [`${FLIPT}/CreateRule`]: ['POST', `${NS}/flags/{flagKey}/rules`],
  [`${FLIPT}/UpdateRule`]: ['PUT', `${NS}/flags/{flagKey}/rules/{id}`],
  [`${FLIPT}/OrderRules`]: ['PUT', `${NS}/flags/{flagKey}/rules/order`],
  [`${FLIPT}/DeleteRule`]: ['DELETE', `${NS}/flags/{flagKey}/rules/{id}`],
  [`${FLIPT}/GetRollout`]: ['GET', `${NS}/flags/{flagKey}/rollouts/{id}`],
  [`${FLIPT}/ListRollouts`]: ['GET', `${NS}/flags/{flagKey}/rollouts`],
  [`${FLIPT}/CreateRollout`]: ['POST', `${NS}/flags/{flagKey}/rollouts`],
  [`${FLIPT}/UpdateRollout`]: ['PUT', `${NS}/flags/{flagKey}/rollouts/{id}`],
  [`${FLIPT}/DeleteRollout`]: ['DELETE', `${NS}/flags/{flagKey}/rollouts/{id}`],
  [`${FLIPT}/OrderRollouts`]: ['PUT', `${NS}/flags/{flagKey}/rollouts/order`],
  [`${FLIPT}/CreateDistribution`]: ['POST', `${NS}/flags/{flagKey}/rules/{ruleId}/distributions`],
  [`${FLIPT}/UpdateDistribution`]: ['PUT', `${NS}/flags/{flagKey}/rules/{ruleId}/distributions/{id}`],
  [`${FLIPT}/DeleteDistribution`]: ['DELETE', `${NS}/flags/{flagKey}/rules/{ruleId}/distributions/{id}`],
  [`${FLIPT}/GetSegment`]: ['GET', `${NS}/segments/{key}`],
  [`${FLIPT}/ListSegments`]: ['GET', `${NS}/segments`],
  [`${FLIPT}/CreateSegment`]: ['POST', `${NS}/segments`],
  [`${FLIPT}/UpdateSegment`]: ['PUT', `${NS}/segments/{key}`],
  [`${FLIPT}/DeleteSegment`]: ['DELETE', `${NS}/segments/{key}`],
  [`${FLIPT}/CreateConstraint`]: ['POST', `${NS}/segments/{segmentKey}/constraints`],
  [`${FLIPT}/UpdateConstraint`]: ['PUT', `${NS}/segments/{segmentKey}/constraints/{id}`],
  [`${FLIPT}/DeleteConstraint`]: ['DELETE', `${NS}/segments/{segmentKey}/constraints/{id}`],
  [`${EVALUATION}/Boolean`]: ['POST', '/evaluate/v1/boolean'],
  [`${EVALUATION}/Variant`]: ['POST', '/evaluate/v1/variant'],
  [`${EVALUATION}/Batch`]: ['POST', '/evaluate/v1/batch'],
  [`${DATA}/EvaluationSnapshotNamespace`]: ['GET', '/internal/v1/evaluation/snapshot/namespace/{key}'],
  [`${OFREP}/GetProviderConfiguration`]: ['GET', '/ofrep/v1/configuration'],
  [`${OFREP}/EvaluateFlag`]: ['POST', '/ofrep/v1/evaluate/flags/{key}'],
  [`${META}/GetConfiguration`]: ['GET', '/meta/config'],
  [`${META}/GetInfo`]: ['GET', '/meta/info'],
};

/** The HTTP status Flipt's gateway answers for each gRPC code (grpc-gateway's HTTPStatusFromCode). */
const HTTP_STATUS: Record<number, number> = { 3: 400, 5: 404, 6: 409, 7: 403, 8: 429, 9: 400, 12: 501, 16: 401 };

type Message = Record<string, unknown>;

interface Step {
  rpc: string;
  request: Message;
  /** gRPC metadata, sent as HTTP headers too. */
  headers?: Record<string, string>;
  /** Names the answer's `id` (or another field's value) so that later steps can refer to it as `$name`. */
  save?: string;
}

/** The step's REST request: the route's path with the message's path fields, the rest as body or query. */
function restOf(step: Step): { method: string; path: string; body?: string } {
  const route = ROUTES[step.rpc];
  if (!route) throw new Error(`no route for ${step.rpc}`);
  let [method, template] = route;
  // No namespace in the message: Flipt's routes without one (namespace "default", or the body's).
  if (template.includes('{namespaceKey}') && !step.request.namespaceKey)
    template = template.replace('/namespaces/{namespaceKey}', '');
  const rest: Message = { ...step.request };
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(rest[name] ?? '');
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (method === 'GET' || method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) query.set(key, String(value));
    const text = query.toString();
    return { method, path: text ? `${path}?${text}` : path };
  }
  // Flipt's POST and PUT routes take the whole message as the body (`body: "*"`).
  return { method, path, body: JSON.stringify(step.request) };
}

/** `$name` strings (also inside lists and objects) as the ids the app saved under those names. */
function bind(value: unknown, ids: Map<string, string>): any {
  if (typeof value === 'string' && value.startsWith('$')) {
    const id = ids.get(value.slice(1));
    if (id === undefined) throw new Error(`unbound ${value}`);
    return id;
  }
  if (Array.isArray(value)) return value.map((item) => bind(item, ids));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, bind(item, ids)]));
  return value;
}

/** Ids back to their names, wherever they appear (also inside messages), and creation times left out. */
function named(value: unknown, names: Map<string, string>): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const [id, name] of names) if (text.includes(id)) text = text.split(id).join(`$${name}`);
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => named(item, names));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (key === 'createdAt' || key === 'updatedAt') return [key, item === null ? null : '<time>'];
        // A page token is base64 JSON naming the next item's id.
        if (key === 'nextPageToken' && typeof item === 'string' && item)
          return [key, named(Buffer.from(item, 'base64').toString(), names)];
        return [key, named(item, names)];
      }),
    );
  return value;
}

/**
 * Keys sorted, evaluation metadata that differs per call left out (time, duration), numbers as float32:
 * a `float` field's value reaches a gRPC client as the float32 nearest the REST answer's decimal.
 */
function canonical(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.fround(value);
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['requestDurationMillis', 'timestamp'].includes(key))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, item]) => [key, canonical(item)]),
  );
}

function withoutRequestIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRequestIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'requestId')
      .map(([key, item]) => [key, withoutRequestIds(item)]),
  );
}

/** A REST JSON answer in the client's terms: timestamps as instants (toRestJson's form). */
function restJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      typeof item === 'string' && (key === 'createdAt' || key === 'updatedAt' || key === 'timestamp')
        ? instant(item)
        : restJson(item),
    ]),
  );
}

type Outcome = { ok: true; answer: unknown } | { ok: false; code: number; message: string; status?: number };

const isRead = (rpc: string) => !rpc.startsWith(FLIPT) || /\/(Get|List|Evaluate|BatchEvaluate)/.test(rpc);

describe.each(dialects)('gRPC answers as REST (%s)', (dialect) => {
  let rest: TestApp;
  let grpcApp: TestApp;
  let grpc: Awaited<ReturnType<typeof startGrpc>>;
  const urls: Record<string, string> = {};
  const ids = { rest: new Map<string, string>(), grpc: new Map<string, string>() };
  const names = { rest: new Map<string, string>(), grpc: new Map<string, string>() };

  beforeAll(async () => {
    rest = await startTestApp(dialect);
    grpcApp = await startTestApp(dialect);
    for (const [name, test] of [
      ['rest', rest],
      ['grpc', grpcApp],
    ] as const) {
      await test.app.listen({ port: 0, host: '127.0.0.1' });
      urls[name] = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    }
    grpc = await startGrpc(grpcApp);
  }, 60_000);

  afterAll(async () => {
    await grpc?.close();
    await rest?.close();
    await grpcApp?.close();
  });

  async function overRest(app: 'rest' | 'grpc', step: Step, request: Message): Promise<Outcome> {
    const { method, path, body } = restOf({ ...step, request });
    const response = await fetch(`${urls[app]}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...step.headers },
      body,
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (response.status !== 200) {
      // OFREP's REST errors are its own shape; Flipt's gateway gives them the status of the gRPC code.
      if (json.errorDetails !== undefined)
        return {
          ok: false,
          code: response.status === 404 ? 5 : 3,
          message: json.errorDetails,
          status: response.status,
        };
      return { ok: false, code: json.code, message: json.message, status: response.status };
    }
    return { ok: true, answer: restJson(json) };
  }

  async function overGrpc(step: Step, request: Message): Promise<Outcome> {
    const [service, method] = step.rpc.split('/');
    try {
      const answer = await grpc.client.call(service, method, asMessage(request), step.headers);
      return { ok: true, answer: fromGrpc(step.rpc, answer) };
    } catch (error) {
      const { code, details } = error as { code?: number; details: string };
      // Not a status: the client could not send the request (a mistake in this test).
      if (typeof code !== 'number') throw error;
      return { ok: false, code, message: details };
    }
  }

  let cases = 0;
  let failures = 0;
  const called = new Set<string>();
  const mismatches: unknown[] = [];

  /** Runs a step on both apps and records any difference; answers app R's outcome. */
  async function step(s: Step): Promise<Outcome> {
    cases++;
    called.add(s.rpc);
    const requests = { rest: bind(s.request, ids.rest), grpc: bind(s.request, ids.grpc) };
    const [r, g] = [await overRest('rest', s, requests.rest), await overGrpc(s, requests.grpc)];
    if (s.save) {
      for (const [side, outcome] of [
        ['rest', r],
        ['grpc', g],
      ] as const) {
        if (!outcome.ok) continue;
        const id = String((outcome.answer as Message).id ?? '');
        if (id) {
          ids[side].set(s.save, id);
          names[side].set(id, s.save);
        }
      }
    }
    const view = (o: Outcome, side: 'rest' | 'grpc') => {
      if (!o.ok) return { error: o.code, message: named(o.message, names[side]) };
      return canonical(named(o.answer, names[side]));
    };
    // A request id the client did not send is a new one on each call.
    if (!JSON.stringify(s.request).includes('"requestId"')) {
      for (const o of [r, g]) if (o.ok) o.answer = withoutRequestIds(o.answer);
    }
    const a = view(r, 'rest');
    const b = view(g, 'grpc');
    if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push({ step: s, rest: a, grpc: b });
    if (!r.ok) failures++;
    if (!r.ok && r.status !== HTTP_STATUS[r.code]) mismatches.push({ step: s, status: r.status, code: r.code });
    if (isRead(s.rpc)) {
      // The same read on the same data: exactly equal, ids and times included.
      let same = await overRest('grpc', s, requests.grpc);
      if (same.ok && !JSON.stringify(s.request).includes('"requestId"'))
        same = { ok: true, answer: withoutRequestIds(same.answer) };
      const exact = (o: Outcome) => (o.ok ? canonical(o.answer) : { error: o.code, message: o.message });
      if (JSON.stringify(exact(same)) !== JSON.stringify(exact(g)))
        mismatches.push({ step: s, sameApp: true, rest: exact(same), grpc: exact(g) });
    }
    return r;
  }

  it('answers every RPC as the REST API does, errors included', async () => {
    const r = random(35);
    const ns = ['default', 'team-a'];
    await step({
      rpc: `${FLIPT}/CreateNamespace`,
      request: { key: 'team-a', name: 'Team A', description: 'the A team' },
    });
    await step({ rpc: `${FLIPT}/CreateNamespace`, request: { key: 'scratch', name: 'Scratch' } });
    await step({ rpc: `${FLIPT}/UpdateNamespace`, request: { key: 'scratch', name: 'Scratch 2', description: 'd' } });
    await step({ rpc: `${FLIPT}/GetNamespace`, request: { key: 'team-a' } });
    await step({ rpc: `${FLIPT}/ListNamespaces`, request: {} });
    await step({ rpc: `${FLIPT}/ListNamespaces`, request: { limit: 2 } });

    const PLANS = ['free', 'pro', 'enterprise'];
    const REGIONS = ['eu-west', 'us-east', 'ap-south'];
    const constraint = (): Message => {
      switch (r.int(5)) {
        case 0:
          return {
            type: 'STRING_COMPARISON_TYPE',
            property: 'plan',
            operator: r.pick(['eq', 'neq']),
            value: r.pick(PLANS),
          };
        case 1:
          return {
            type: 'STRING_COMPARISON_TYPE',
            property: 'region',
            operator: 'prefix',
            value: r.pick(['eu', 'us']),
          };
        case 2:
          return {
            type: 'NUMBER_COMPARISON_TYPE',
            property: 'seats',
            operator: r.pick(['lt', 'gte', 'eq']),
            value: String(r.pick([5, 10, 100])),
          };
        case 3:
          return { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: r.pick(['true', 'false']) };
        default:
          return {
            type: 'DATETIME_COMPARISON_TYPE',
            property: 'signup',
            operator: r.pick(['lt', 'gt']),
            value: '2024-06-01T00:00:00Z',
            description: 'signed up',
          };
      }
    };
    const flags: Record<string, { key: string; variant: boolean; variants: string[]; rules: string[] }[]> = {};
    for (const namespaceKey of ns) {
      const segments: string[] = [];
      for (let i = 0; i < 5; i++) {
        const key = `seg-${i}`;
        await step({
          rpc: `${FLIPT}/CreateSegment`,
          request: {
            namespaceKey,
            key,
            name: `Segment ${i}`,
            description: i % 2 ? 'odd' : '',
            matchType: r.next() < 0.5 ? 'ALL_MATCH_TYPE' : 'ANY_MATCH_TYPE',
          },
        });
        for (let c = 0; c < 1 + r.int(3); c++)
          await step({
            rpc: `${FLIPT}/CreateConstraint`,
            request: { namespaceKey, segmentKey: key, ...constraint() },
            save: `${namespaceKey}/${key}/c${c}`,
          });
        segments.push(key);
      }
      flags[namespaceKey] = [];
      for (let f = 0; f < 5; f++) {
        const key = `variant-${f}`;
        await step({
          rpc: `${FLIPT}/CreateFlag`,
          request: {
            namespaceKey,
            key,
            name: `Variant flag ${f}`,
            description: 'generated',
            enabled: r.next() < 0.8,
            ...(f % 2 === 0 && { metadata: { team: 'growth', level: f, nested: { on: true, list: [1, 'two'] } } }),
          },
        });
        const variants: string[] = [];
        for (let v = 0; v < 2 + r.int(3); v++) {
          const name = `${namespaceKey}/${key}/v${v}`;
          await step({
            rpc: `${FLIPT}/CreateVariant`,
            request: {
              namespaceKey,
              flagKey: key,
              key: `v${v}`,
              name: `V${v}`,
              description: v ? '' : 'first',
              ...(r.next() < 0.4 && { attachment: JSON.stringify({ n: v, tags: ['a', 'b'] }) }),
            },
            save: name,
          });
          variants.push(name);
        }
        const rules: string[] = [];
        for (let rank = 1; rank <= 1 + r.int(3); rank++) {
          const chosen = [...new Set([r.pick(segments), r.pick(segments)])];
          const name = `${namespaceKey}/${key}/r${rank}`;
          await step({
            rpc: `${FLIPT}/CreateRule`,
            request: {
              namespaceKey,
              flagKey: key,
              rank,
              ...(chosen.length === 1 && r.next() < 0.5
                ? { segmentKey: chosen[0] }
                : { segmentKeys: chosen, segmentOperator: r.pick(['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR']) }),
            },
            save: name,
          });
          rules.push(name);
          const used = variants.filter(() => r.next() < 0.7);
          let left = 100;
          for (const [i, variant] of used.entries()) {
            const rollout = i === used.length - 1 ? left : r.int(left + 1);
            left -= rollout;
            await step({
              rpc: `${FLIPT}/CreateDistribution`,
              request: { namespaceKey, flagKey: key, ruleId: `$${name}`, variantId: `$${variant}`, rollout },
              save: `${name}/d${i}`,
            });
          }
        }
        flags[namespaceKey].push({ key, variant: true, variants, rules });
      }
      for (let f = 0; f < 4; f++) {
        const key = `boolean-${f}`;
        await step({
          rpc: `${FLIPT}/CreateFlag`,
          request: { namespaceKey, key, name: `Boolean flag ${f}`, type: 'BOOLEAN_FLAG_TYPE', enabled: r.next() < 0.5 },
        });
        const rollouts: string[] = [];
        for (let rank = 1; rank <= 1 + r.int(3); rank++) {
          const name = `${namespaceKey}/${key}/ro${rank}`;
          const rule =
            r.next() < 0.5
              ? { threshold: { percentage: r.pick([0, 12.5, 33.3, 50, 100]), value: r.next() < 0.5 } }
              : {
                  segment: {
                    segmentKeys: [...new Set([r.pick(segments), r.pick(segments)])],
                    value: r.next() < 0.5,
                    segmentOperator: r.pick(['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR']),
                  },
                };
          await step({
            rpc: `${FLIPT}/CreateRollout`,
            request: { namespaceKey, flagKey: key, rank, description: `rollout ${rank}`, ...rule },
            save: name,
          });
          rollouts.push(name);
        }
        flags[namespaceKey].push({ key, variant: false, variants: [], rules: rollouts });
      }
    }

    // Updates and reorderings.
    for (const namespaceKey of ns) {
      const [first, second] = flags[namespaceKey];
      await step({
        rpc: `${FLIPT}/UpdateFlag`,
        request: {
          namespaceKey,
          key: first.key,
          name: 'Renamed',
          description: 'with a default',
          enabled: true,
          defaultVariantId: `$${first.variants[0]}`,
          metadata: { owner: 'ops' },
        },
      });
      await step({
        rpc: `${FLIPT}/UpdateVariant`,
        request: {
          namespaceKey,
          flagKey: first.key,
          id: `$${first.variants[1]}`,
          key: 'v1-renamed',
          name: 'Renamed',
          attachment: '{"x":[1,2,{"y":null}]}',
        },
      });
      await step({
        rpc: `${FLIPT}/UpdateSegment`,
        request: { namespaceKey, key: 'seg-0', name: 'Renamed', description: 'any', matchType: 'ANY_MATCH_TYPE' },
      });
      await step({
        rpc: `${FLIPT}/UpdateConstraint`,
        request: {
          namespaceKey,
          segmentKey: 'seg-0',
          id: `$${namespaceKey}/seg-0/c0`,
          type: 'STRING_COMPARISON_TYPE',
          property: 'plan',
          operator: 'isoneof',
          value: '["pro","enterprise"]',
        },
      });
      await step({
        rpc: `${FLIPT}/UpdateRule`,
        request: {
          namespaceKey,
          flagKey: first.key,
          id: `$${first.rules[0]}`,
          segmentKeys: ['seg-1', 'seg-2'],
          segmentOperator: 'AND_SEGMENT_OPERATOR',
        },
      });
      for (const flag of [first, second]) {
        if (flag.rules.length > 1)
          await step({
            rpc: `${FLIPT}/OrderRules`,
            request: { namespaceKey, flagKey: flag.key, ruleIds: [...flag.rules].reverse().map((id) => `$${id}`) },
          });
      }
      const distribution = `${first.rules[0]}/d0`;
      if (ids.rest.has(distribution))
        await step({
          rpc: `${FLIPT}/UpdateDistribution`,
          request: {
            namespaceKey,
            flagKey: first.key,
            ruleId: `$${first.rules[0]}`,
            id: `$${distribution}`,
            variantId: `$${first.variants[0]}`,
            rollout: 42.5,
          },
        });
      const booleans = flags[namespaceKey].filter((flag) => !flag.variant);
      for (const flag of booleans) {
        const [rollout] = flag.rules;
        const get = await step({
          rpc: `${FLIPT}/GetRollout`,
          request: { namespaceKey, flagKey: flag.key, id: `$${rollout}` },
        });
        const type = get.ok ? (get.answer as Message).type : undefined;
        await step({
          rpc: `${FLIPT}/UpdateRollout`,
          request: {
            namespaceKey,
            flagKey: flag.key,
            id: `$${rollout}`,
            description: 'updated',
            ...(type === 'THRESHOLD_ROLLOUT_TYPE'
              ? { threshold: { percentage: 66.6, value: true } }
              : { segment: { segmentKey: 'seg-3', value: true } }),
          },
        });
        if (flag.rules.length > 1)
          await step({
            rpc: `${FLIPT}/OrderRollouts`,
            request: { namespaceKey, flagKey: flag.key, rolloutIds: [...flag.rules].reverse().map((id) => `$${id}`) },
          });
      }
    }

    // Reads, with pages.
    for (const namespaceKey of ns) {
      await step({ rpc: `${FLIPT}/ListFlags`, request: { namespaceKey } });
      await step({ rpc: `${FLIPT}/ListSegments`, request: { namespaceKey } });
      const page = await step({ rpc: `${FLIPT}/ListFlags`, request: { namespaceKey, limit: 3 } });
      const token = page.ok ? String((page.answer as Message).nextPageToken ?? '') : '';
      if (token) await step({ rpc: `${FLIPT}/ListFlags`, request: { namespaceKey, limit: 3, pageToken: token } });
      await step({ rpc: `${FLIPT}/ListFlags`, request: { namespaceKey, limit: 4, offset: 2 } });
      await step({ rpc: `${FLIPT}/ListSegments`, request: { namespaceKey, limit: 2, offset: 1 } });
      for (const flag of flags[namespaceKey]) {
        await step({ rpc: `${FLIPT}/GetFlag`, request: { namespaceKey, key: flag.key } });
        if (flag.variant) {
          await step({ rpc: `${FLIPT}/ListRules`, request: { namespaceKey, flagKey: flag.key } });
          await step({ rpc: `${FLIPT}/ListRules`, request: { namespaceKey, flagKey: flag.key, limit: 1 } });
          await step({
            rpc: `${FLIPT}/GetRule`,
            request: { namespaceKey, flagKey: flag.key, id: `$${flag.rules[0]}` },
          });
        } else {
          await step({ rpc: `${FLIPT}/ListRollouts`, request: { namespaceKey, flagKey: flag.key } });
          await step({ rpc: `${FLIPT}/ListRollouts`, request: { namespaceKey, flagKey: flag.key, limit: 1 } });
        }
      }
      for (let i = 0; i < 5; i++)
        await step({ rpc: `${FLIPT}/GetSegment`, request: { namespaceKey, key: `seg-${i}` } });
    }
    // The legacy routes without a namespace: "default".
    await step({ rpc: `${FLIPT}/ListFlags`, request: {} });
    await step({ rpc: `${FLIPT}/GetFlag`, request: { key: 'variant-0' } });

    // Evaluations of generated contexts, on every evaluation RPC.
    const context = (): Record<string, string> => {
      const c: Record<string, string> = {};
      if (r.next() < 0.8) c.plan = r.pick(PLANS);
      if (r.next() < 0.8) c.region = r.pick(REGIONS);
      if (r.next() < 0.7) c.seats = r.pick(['1', '5', '10', '100']);
      if (r.next() < 0.7) c.beta = r.pick(['true', 'false']);
      if (r.next() < 0.7) c.signup = r.pick(['2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z']);
      return c;
    };
    for (let i = 0; i < 60; i++) {
      const namespaceKey = r.pick(ns);
      const flag = r.pick(flags[namespaceKey]);
      const request = {
        requestId: `req-${i}`,
        ...(namespaceKey !== 'default' || r.next() < 0.5 ? { namespaceKey } : {}),
        flagKey: flag.key,
        entityId: `user-${r.int(1000)}`,
        context: context(),
      };
      await step({ rpc: `${EVALUATION}/${flag.variant ? 'Variant' : 'Boolean'}`, request });
      if (flag.variant) await step({ rpc: `${FLIPT}/Evaluate`, request });
      await step({
        rpc: `${OFREP}/EvaluateFlag`,
        request: { key: flag.key, context: { targetingKey: request.entityId, ...request.context } },
        headers: { 'x-flipt-namespace': namespaceKey },
      });
    }
    for (let i = 0; i < 6; i++) {
      const namespaceKey = r.pick(ns);
      const requests = Array.from({ length: 8 }, (_, j) => ({
        namespaceKey,
        flagKey: r.next() < 0.1 ? 'missing' : r.pick(flags[namespaceKey]).key,
        entityId: `user-${j}`,
        context: context(),
      }));
      await step({ rpc: `${EVALUATION}/Batch`, request: { requestId: `batch-${i}`, requests } });
      const variants = requests.filter((item) => item.flagKey.startsWith('variant') || item.flagKey === 'missing');
      await step({
        rpc: `${FLIPT}/BatchEvaluate`,
        request: { requestId: `legacy-${i}`, namespaceKey, requests: variants, excludeNotFound: i % 2 === 0 },
      });
    }
    for (const key of [...ns, 'scratch', 'unknown'])
      await step({ rpc: `${DATA}/EvaluationSnapshotNamespace`, request: { key } });
    await step({ rpc: `${OFREP}/GetProviderConfiguration`, request: {} });
    await step({ rpc: `${META}/GetInfo`, request: {} });
    await step({ rpc: `${META}/GetConfiguration`, request: {} });

    // Errors, as the REST contract tests cover them.
    const errors: Step[] = [
      { rpc: `${FLIPT}/GetNamespace`, request: { key: 'nope' } },
      { rpc: `${FLIPT}/CreateNamespace`, request: { name: 'x' } },
      { rpc: `${FLIPT}/CreateNamespace`, request: { key: 'a.b', name: 'x' } },
      { rpc: `${FLIPT}/CreateNamespace`, request: { key: 'ok' } },
      { rpc: `${FLIPT}/CreateNamespace`, request: { key: 'k'.repeat(256), name: 'x' } },
      { rpc: `${FLIPT}/CreateNamespace`, request: { key: 'ok', name: 'n'.repeat(256) } },
      { rpc: `${FLIPT}/CreateNamespace`, request: { key: 'team-a', name: 'again' } },
      { rpc: `${FLIPT}/UpdateNamespace`, request: { key: 'nope', name: 'x' } },
      { rpc: `${FLIPT}/DeleteNamespace`, request: { key: 'nope' } },
      { rpc: `${FLIPT}/DeleteNamespace`, request: { key: 'default' } },
      { rpc: `${FLIPT}/DeleteNamespace`, request: { key: 'team-a' } },
      { rpc: `${FLIPT}/CreateFlag`, request: { namespaceKey: 'team-a', key: 'variant-0', name: 'dup' } },
      { rpc: `${FLIPT}/CreateFlag`, request: { namespaceKey: 'none', key: 'f', name: 'F' } },
      { rpc: `${FLIPT}/CreateFlag`, request: { namespaceKey: 'team-a', key: 'x', name: 'X', type: 7 } },
      { rpc: `${FLIPT}/CreateFlag`, request: { namespaceKey: 'team-a', key: 'x y', name: 'X' } },
      { rpc: `${FLIPT}/CreateFlag`, request: { namespaceKey: 'team-a', key: 'x\u0000', name: 'X' } },
      { rpc: `${FLIPT}/CreateFlag`, request: { namespaceKey: 'team-a', key: 'x' } },
      { rpc: `${FLIPT}/GetFlag`, request: { namespaceKey: 'team-a', key: 'none' } },
      { rpc: `${FLIPT}/UpdateFlag`, request: { namespaceKey: 'team-a', key: 'none', name: 'x' } },
      { rpc: `${FLIPT}/UpdateFlag`, request: { namespaceKey: 'team-a', key: 'variant-1' } },
      {
        rpc: `${FLIPT}/UpdateFlag`,
        request: { namespaceKey: 'team-a', key: 'variant-1', name: 'x', defaultVariantId: '$team-a/variant-0/v0' },
      },
      { rpc: `${FLIPT}/ListFlags`, request: { namespaceKey: 'team-a', pageToken: 'bm9wZQ==' } },
      { rpc: `${FLIPT}/ListFlags`, request: { namespaceKey: 'team-a', limit: 1, pageToken: 'not a token' } },
      { rpc: `${FLIPT}/CreateVariant`, request: { namespaceKey: 'team-a', flagKey: 'variant-0', key: 'v0' } },
      {
        rpc: `${FLIPT}/CreateVariant`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', key: 'bad', attachment: '{nope' },
      },
      { rpc: `${FLIPT}/CreateVariant`, request: { namespaceKey: 'team-a', flagKey: 'variant-0' } },
      { rpc: `${FLIPT}/CreateVariant`, request: { namespaceKey: 'team-a', flagKey: 'missing', key: 'a' } },
      {
        rpc: `${FLIPT}/UpdateVariant`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', id: 'unknown-id', key: 'zzz' },
      },
      {
        rpc: `${FLIPT}/UpdateVariant`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', id: '$team-a/variant-0/v1', key: 'v0' },
      },
      { rpc: `${FLIPT}/CreateSegment`, request: { namespaceKey: 'team-a', key: 'seg-0', name: 'x' } },
      { rpc: `${FLIPT}/CreateSegment`, request: { namespaceKey: 'none', key: 'x', name: 'x' } },
      { rpc: `${FLIPT}/CreateSegment`, request: { namespaceKey: 'team-a', key: 'x', name: 'x', matchType: 5 } },
      { rpc: `${FLIPT}/UpdateSegment`, request: { namespaceKey: 'team-a', key: 'none', name: 'x' } },
      { rpc: `${FLIPT}/GetSegment`, request: { namespaceKey: 'team-a', key: 'none' } },
      { rpc: `${FLIPT}/DeleteSegment`, request: { namespaceKey: 'team-a', key: 'seg-1' } },
      ...[
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'gt', value: 'x' },
        { type: 'NUMBER_COMPARISON_TYPE', property: 'p', operator: 'prefix', value: '1' },
        { type: 'BOOLEAN_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'true' },
        { type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'empty' },
        { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'x' },
        { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'prefix', value: 'x' },
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq' },
        { type: 'STRING_COMPARISON_TYPE', operator: 'eq', value: 'x' },
        { type: 'STRING_COMPARISON_TYPE', property: 'p', value: 'x' },
        { type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'yesterday' },
        { type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'eq', value: '2023-02-29' },
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'isoneof', value: '[1]' },
        { type: 'NUMBER_COMPARISON_TYPE', property: 'p', operator: 'isnotoneof', value: '["1"]' },
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'isoneof', value: 'a,b' },
        {
          type: 'STRING_COMPARISON_TYPE',
          property: 'p',
          operator: 'isoneof',
          value: JSON.stringify(Array.from({ length: 101 }, (_, i) => `v${i}`)),
        },
        { type: 'STRING_COMPARISON_TYPE', property: 'p'.repeat(256), operator: 'eq', value: 'x' },
      ].map((c) => ({
        rpc: `${FLIPT}/CreateConstraint`,
        request: { namespaceKey: 'team-a', segmentKey: 'seg-2', ...c },
      })),
      {
        rpc: `${FLIPT}/CreateConstraint`,
        request: {
          namespaceKey: 'team-a',
          segmentKey: 'none',
          type: 'STRING_COMPARISON_TYPE',
          property: 'p',
          operator: 'eq',
          value: 'x',
        },
      },
      {
        rpc: `${FLIPT}/UpdateConstraint`,
        request: {
          namespaceKey: 'team-a',
          segmentKey: 'seg-2',
          id: 'nope',
          type: 'BOOLEAN_COMPARISON_TYPE',
          property: 'beta',
          operator: 'true',
        },
      },
      ...[
        { rank: 1 },
        { segmentKey: 'seg-1', segmentKeys: ['seg-2'], rank: 1 },
        { segmentKey: 'seg-1' },
        { segmentKey: 'seg-1', rank: -3 },
        { segmentKey: 'seg-1', rank: 1, segmentOperator: 9 },
        { segmentKey: 'nope', rank: 1 },
        { segmentKeys: ['seg-1', 'nope'], rank: 1 },
      ].map((rule) => ({
        rpc: `${FLIPT}/CreateRule`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', ...rule },
      })),
      {
        rpc: `${FLIPT}/CreateRule`,
        request: { namespaceKey: 'team-a', flagKey: 'none', segmentKey: 'seg-1', rank: 1 },
      },
      { rpc: `${FLIPT}/GetRule`, request: { namespaceKey: 'team-a', flagKey: 'variant-0', id: 'none' } },
      {
        rpc: `${FLIPT}/UpdateRule`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', id: 'none', segmentKey: 'seg-1' },
      },
      {
        rpc: `${FLIPT}/OrderRules`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', ruleIds: ['$team-a/variant-0/r1'] },
      },
      {
        rpc: `${FLIPT}/ListRules`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', pageToken: 'eyJrZXkiOiJ4In0=' },
      },
      ...[
        { variantId: '$team-a/variant-0/v0', rollout: 101 },
        { variantId: '$team-a/variant-0/v0', rollout: -1 },
        { rollout: 1 },
        { variantId: 'nope', rollout: 1 },
      ].map((d) => ({
        rpc: `${FLIPT}/CreateDistribution`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', ruleId: '$team-a/variant-0/r1', ...d },
      })),
      {
        rpc: `${FLIPT}/CreateDistribution`,
        request: {
          namespaceKey: 'team-a',
          flagKey: 'variant-0',
          ruleId: 'nope',
          variantId: '$team-a/variant-0/v0',
          rollout: 1,
        },
      },
      {
        rpc: `${FLIPT}/UpdateDistribution`,
        request: {
          namespaceKey: 'team-a',
          flagKey: 'variant-0',
          ruleId: '$team-a/variant-0/r1',
          id: 'nope',
          variantId: '$team-a/variant-0/v0',
          rollout: 1,
        },
      },
      {
        rpc: `${FLIPT}/DeleteDistribution`,
        request: { namespaceKey: 'team-a', flagKey: 'variant-0', ruleId: '$team-a/variant-0/r1', id: 'nope' },
      },
      ...[
        { rank: 9 },
        { rank: 1, threshold: { percentage: 1 } },
        { rank: 9, threshold: { percentage: 101 } },
        { rank: 9, segment: {} },
        { rank: 9, segment: { segmentKey: 'nope' } },
        { rank: 9, segment: { segmentKey: 'seg-1' }, threshold: { percentage: 5 } },
      ].map((rollout) => ({
        rpc: `${FLIPT}/CreateRollout`,
        request: { namespaceKey: 'team-a', flagKey: 'boolean-0', ...rollout },
      })),
      {
        rpc: `${FLIPT}/CreateRollout`,
        request: { namespaceKey: 'team-a', flagKey: 'none', rank: 1, threshold: { percentage: 1 } },
      },
      { rpc: `${FLIPT}/GetRollout`, request: { namespaceKey: 'team-a', flagKey: 'boolean-0', id: 'none' } },
      {
        rpc: `${FLIPT}/UpdateRollout`,
        request: { namespaceKey: 'team-a', flagKey: 'boolean-0', id: 'none', threshold: { percentage: 1 } },
      },
      { rpc: `${FLIPT}/OrderRollouts`, request: { namespaceKey: 'team-a', flagKey: 'boolean-0', rolloutIds: [] } },
      // Evaluation errors.
      { rpc: `${EVALUATION}/Variant`, request: { namespaceKey: 'team-a', flagKey: 'missing', entityId: 'e' } },
      { rpc: `${EVALUATION}/Variant`, request: { namespaceKey: 'team-a', flagKey: 'boolean-0', entityId: 'e' } },
      { rpc: `${EVALUATION}/Boolean`, request: { namespaceKey: 'team-a', flagKey: 'variant-0', entityId: 'e' } },
      { rpc: `${EVALUATION}/Boolean`, request: { namespaceKey: 'team-a', entityId: 'e' } },
      { rpc: `${EVALUATION}/Variant`, request: { namespaceKey: 'team-a', flagKey: 'variant-0' } },
      { rpc: `${EVALUATION}/Variant`, request: { namespaceKey: 'nowhere', flagKey: 'variant-0', entityId: 'e' } },
      { rpc: `${FLIPT}/Evaluate`, request: { namespaceKey: 'team-a', flagKey: 'missing', entityId: 'e' } },
      { rpc: `${FLIPT}/Evaluate`, request: { namespaceKey: 'team-a', flagKey: 'boolean-0', entityId: 'e' } },
      {
        rpc: `${FLIPT}/BatchEvaluate`,
        request: { namespaceKey: 'team-a', requests: [{ flagKey: 'missing', entityId: 'e' }] },
      },
      {
        rpc: `${OFREP}/EvaluateFlag`,
        request: { key: 'missing', context: { targetingKey: 'e' } },
        headers: { 'x-flipt-namespace': 'team-a' },
      },
      {
        rpc: `${OFREP}/EvaluateFlag`,
        request: { key: 'variant-0', context: {} },
        headers: { 'x-flipt-namespace': 'team-a' },
      },
    ];
    for (const e of errors) await step(e);

    // Deletes, the busy ones first refused.
    for (const namespaceKey of ns) {
      const [first] = flags[namespaceKey];
      const distribution = `${first.rules[0]}/d0`;
      if (ids.rest.has(distribution))
        await step({
          rpc: `${FLIPT}/DeleteDistribution`,
          request: {
            namespaceKey,
            flagKey: first.key,
            ruleId: `$${first.rules[0]}`,
            id: `$${distribution}`,
            variantId: `$${first.variants[0]}`,
          },
        });
      await step({
        rpc: `${FLIPT}/DeleteRule`,
        request: { namespaceKey, flagKey: first.key, id: `$${first.rules[0]}` },
      });
      await step({
        rpc: `${FLIPT}/DeleteVariant`,
        request: { namespaceKey, flagKey: first.key, id: `$${first.variants.at(-1)}` },
      });
      const boolean = flags[namespaceKey].find((flag) => !flag.variant)!;
      await step({
        rpc: `${FLIPT}/DeleteRollout`,
        request: { namespaceKey, flagKey: boolean.key, id: `$${boolean.rules[0]}` },
      });
      await step({
        rpc: `${FLIPT}/DeleteConstraint`,
        request: { namespaceKey, segmentKey: 'seg-4', id: `$${namespaceKey}/seg-4/c0` },
      });
      await step({ rpc: `${FLIPT}/DeleteFlag`, request: { namespaceKey, key: first.key } });
      await step({ rpc: `${FLIPT}/GetFlag`, request: { namespaceKey, key: first.key } });
      await step({ rpc: `${FLIPT}/ListFlags`, request: { namespaceKey } });
    }
    await step({ rpc: `${FLIPT}/DeleteNamespace`, request: { key: 'team-a', force: true } });
    await step({ rpc: `${FLIPT}/DeleteNamespace`, request: { key: 'scratch' } });
    await step({ rpc: `${FLIPT}/ListNamespaces`, request: {} });
    await step({ rpc: `${DATA}/EvaluationSnapshotNamespace`, request: { key: 'default' } });

    console.log(
      `gRPC differential (${dialect}): ${cases} cases (${failures} errors), ${called.size} RPCs, ${mismatches.length} mismatches`,
    );
    if (mismatches.length && process.env.GRPC_DIFF_OUT)
      writeFileSync(`${process.env.GRPC_DIFF_OUT}-${dialect}.json`, JSON.stringify(mismatches, null, 1));
    expect(mismatches.slice(0, 3)).toEqual([]);
    expect(cases).toBeGreaterThan(400);
    expect(failures).toBeGreaterThan(80);
    // Every RPC of the services compared was called.
    expect(Object.keys(ROUTES).filter((rpc) => !called.has(rpc))).toEqual([]);
  }, 300_000);
});

/** A request as protobufjs takes it: Flipt's only Struct request field, `metadata`, as a Struct. */
function asMessage(request: Message): Message {
  if (!request.metadata || typeof request.metadata !== 'object') return request;
  return { ...request, metadata: structOf(request.metadata as Message) };
}

function structOf(json: Message): Message {
  return { fields: Object.fromEntries(Object.entries(json).map(([key, value]) => [key, protoValue(value)])) };
}

function protoValue(value: unknown): Message {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(protoValue) } };
  return { structValue: structOf(value as Message) };
}

/** A gRPC answer in REST's JSON terms; metadata's HttpBody is the JSON it carries. */
function fromGrpc(rpc: string, answer: any): unknown {
  if (rpc.startsWith(META)) return restJson(JSON.parse(Buffer.from(answer.data).toString()));
  return toRestJson(answer);
}
