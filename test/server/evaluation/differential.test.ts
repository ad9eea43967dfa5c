import type { AddressInfo } from 'node:net';
import { FliptClient } from '@flipt-io/flipt-client-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';
import { restWithInstants, startGrpc, toRestJson } from '../grpc/client.js';

/**
 * Differential check against Flipt's own engine: @flipt-io/flipt-client-js 0.5.1 (WASM), fed from
 * our snapshot endpoint, must agree with our /evaluate/v1 answers. The data set stays clear of the
 * client engine's known divergences: distributions sum to exactly 100, numbers are
 * 32-bit integers, datetimes are RFC 3339 at whole seconds, booleans are "true"/"false", no value
 * has surrounding whitespace, no UNKNOWN constraint types. The same requests go through gRPC's
 * EvaluationService (Batch, and Variant or Boolean for every tenth), whose answers must equal REST's.
 */
/** Pairs per database: SQLite is the default storage and gets the most. */
const PAIRS_ON = { sqlite: 10_000, postgres: 3_000 } as const;

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
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

const PLANS = ['free', 'pro', 'premium', 'enterprise'];
const REGIONS = ['eu-west', 'eu-north', 'us-east', 'ap-south'];
const SEATS = ['1', '5', '10', '42', '100', '-3'];
const DATES = ['2023-06-01T00:00:00Z', '2024-01-01T00:00:00Z', '2024-06-15T12:30:00Z', '2025-02-01T08:00:00Z'];
const ENTITIES = Array.from({ length: 40 }, (_, i) => `user-${i}`);

type ConstraintSpec = [type: string, property: string, operator: string, value?: string];

function generateConstraint(r: ReturnType<typeof random>): ConstraintSpec {
  switch (r.int(6)) {
    case 0:
      return ['STRING_COMPARISON_TYPE', 'plan', r.pick(['eq', 'neq']), r.pick(PLANS)];
    case 1: {
      const operator = r.pick([
        'prefix',
        'suffix',
        'contains',
        'notcontains',
        'isoneof',
        'isnotoneof',
        'empty',
        'notempty',
      ]);
      if (operator === 'contains' || operator === 'notcontains')
        return ['STRING_COMPARISON_TYPE', 'region', operator, r.pick(['eu', 'west', '-', 'EU', 'st-'])];
      if (operator === 'prefix') return ['STRING_COMPARISON_TYPE', 'region', operator, r.pick(['eu', 'us', 'ap'])];
      if (operator === 'suffix')
        return ['STRING_COMPARISON_TYPE', 'region', operator, r.pick(['west', 'east', 'north'])];
      if (operator === 'empty' || operator === 'notempty') return ['STRING_COMPARISON_TYPE', 'region', operator];
      return ['STRING_COMPARISON_TYPE', 'region', operator, JSON.stringify(REGIONS.filter(() => r.next() < 0.5))];
    }
    case 2: {
      const operator = r.pick([
        'eq',
        'neq',
        'lt',
        'lte',
        'gt',
        'gte',
        'present',
        'notpresent',
        'isoneof',
        'isnotoneof',
      ]);
      if (operator === 'present' || operator === 'notpresent') return ['NUMBER_COMPARISON_TYPE', 'seats', operator];
      if (operator === 'isoneof' || operator === 'isnotoneof') {
        return [
          'NUMBER_COMPARISON_TYPE',
          'seats',
          operator,
          JSON.stringify(SEATS.filter(() => r.next() < 0.5).map(Number)),
        ];
      }
      return ['NUMBER_COMPARISON_TYPE', 'seats', operator, r.pick(SEATS)];
    }
    case 3:
      return ['BOOLEAN_COMPARISON_TYPE', 'beta', r.pick(['true', 'false', 'present', 'notpresent'])];
    case 4: {
      const operator = r.pick(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent']);
      if (operator === 'present' || operator === 'notpresent') return ['DATETIME_COMPARISON_TYPE', 'signup', operator];
      return ['DATETIME_COMPARISON_TYPE', 'signup', operator, r.pick(DATES)];
    }
    default: {
      const operator = r.pick(['eq', 'neq', 'contains', 'notcontains', 'isoneof', 'isnotoneof']);
      if (operator === 'contains' || operator === 'notcontains')
        return ['ENTITY_ID_COMPARISON_TYPE', 'entityId', operator, r.pick(['user-1', '-2', 'USER'])];
      if (operator === 'eq' || operator === 'neq')
        return ['ENTITY_ID_COMPARISON_TYPE', 'entityId', operator, r.pick(ENTITIES)];
      return ['ENTITY_ID_COMPARISON_TYPE', 'entityId', operator, JSON.stringify(ENTITIES.filter(() => r.next() < 0.3))];
    }
  }
}

function generateContext(r: ReturnType<typeof random>): Record<string, string> {
  const context: Record<string, string> = {};
  if (r.next() < 0.8) context.plan = r.pick(PLANS);
  if (r.next() < 0.8) context.region = r.pick(REGIONS);
  if (r.next() < 0.7) context.seats = r.pick(SEATS);
  if (r.next() < 0.7) context.beta = r.pick(['true', 'false']);
  if (r.next() < 0.7) context.signup = r.pick(DATES);
  return context;
}

/** Integer rollouts summing to exactly 100. */
function split(r: ReturnType<typeof random>, parts: number): number[] {
  const cuts = Array.from({ length: parts - 1 }, () => r.int(101)).sort((a, b) => a - b);
  return [...cuts, 100].map((cut, i) => cut - (i === 0 ? 0 : cuts[i - 1]));
}

describe.each(dialects)('differential check against @flipt-io/flipt-client-js 0.5.1 on %s', (dialect) => {
  const PAIRS = PAIRS_ON[dialect];
  let test: TestApp;
  let baseUrl: string;
  let client: Awaited<ReturnType<typeof FliptClient.init>>;
  let grpc: Awaited<ReturnType<typeof startGrpc>>;
  const flags: { key: string; type: 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE' }[] = [];

  beforeAll(async () => {
    test = await startTestApp(dialect);
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    const api = new Api(test.app);
    const r = random(20261122);

    const segments: string[] = [];
    for (let i = 0; i < 14; i++) {
      const key = `segment-${i}`;
      const constraints = Array.from({ length: 1 + r.int(3) }, () => generateConstraint(r));
      await api.segment('default', key, constraints, r.next() < 0.5 ? 'ALL_MATCH_TYPE' : 'ANY_MATCH_TYPE');
      segments.push(key);
    }
    const someSegments = () => {
      const chosen = new Set([r.pick(segments)]);
      if (r.next() < 0.4) chosen.add(r.pick(segments));
      return [...chosen];
    };

    for (let f = 0; f < 12; f++) {
      const key = `variant-flag-${f}`;
      await api.flag('default', key, 'VARIANT_FLAG_TYPE', r.next() < 0.85);
      const variants = [];
      for (let v = 0; v < 2 + r.int(3); v++)
        variants.push((await api.variant('default', key, `v${v}`, r.next() < 0.3 ? `{"n":${v}}` : '')).id);
      if (r.next() < 0.4)
        await api.ok('PUT', `/api/v1/namespaces/default/flags/${key}`, {
          name: key,
          enabled: true,
          defaultVariantId: r.pick(variants),
        });
      const rules = 1 + r.int(3);
      for (let rank = 1; rank <= rules; rank++) {
        const used = variants.filter(() => r.next() < 0.7);
        const rollouts = used.length ? split(r, used.length) : [];
        await api.rule(
          'default',
          key,
          someSegments(),
          used.map((id, i) => [id, rollouts[i]]),
          rank,
          r.next() < 0.5 ? 'OR_SEGMENT_OPERATOR' : 'AND_SEGMENT_OPERATOR',
        );
      }
      flags.push({ key, type: 'VARIANT_FLAG_TYPE' });
    }
    for (let f = 0; f < 8; f++) {
      const key = `boolean-flag-${f}`;
      await api.flag('default', key, 'BOOLEAN_FLAG_TYPE', r.next() < 0.5);
      const rollouts = r.int(4);
      for (let rank = 1; rank <= rollouts; rank++) {
        if (r.next() < 0.4) await api.threshold('default', key, rank, r.int(101), r.next() < 0.5);
        else
          await api.segmentRollout(
            'default',
            key,
            rank,
            someSegments(),
            r.next() < 0.5,
            r.next() < 0.5 ? 'OR_SEGMENT_OPERATOR' : 'AND_SEGMENT_OPERATOR',
          );
      }
      flags.push({ key, type: 'BOOLEAN_FLAG_TYPE' });
    }

    client = await FliptClient.init({ namespace: 'default', url: baseUrl, updateInterval: 0 });
    grpc = await startGrpc(test);
  });

  // updateInterval 0: the client does not poll, so there is nothing of it to stop.
  afterAll(async () => {
    await grpc?.close();
    await test?.close();
  });

  it(`agrees on ${PAIRS} generated (entity, context) pairs`, async () => {
    const r = random(7);
    const requests = Array.from({ length: PAIRS }, () => {
      const flag = r.pick(flags);
      const entityId = r.next() < 0.5 ? r.pick(ENTITIES) : `entity-${r.int(1_000_000)}`;
      return { flag, request: { flagKey: flag.key, entityId, context: generateContext(r) } };
    });
    const mismatches: unknown[] = [];
    const grpcMismatches: unknown[] = [];
    let matched = 0;
    for (let i = 0; i < requests.length; i += 250) {
      const chunk = requests.slice(i, i + 250);
      const response = await fetch(`${baseUrl}/evaluate/v1/batch`, {
        method: 'POST',
        body: JSON.stringify({ requests: chunk.map((c) => c.request) }),
      });
      expect(response.status).toBe(200);
      const ours = (await response.json()).responses;
      const service = 'flipt.evaluation.EvaluationService';
      const overGrpc = await grpc.client.call(service, 'Batch', { requests: chunk.map((c) => c.request) });
      const sameAnswer = (rest: unknown, answer: unknown) =>
        JSON.stringify(withoutMeta(restWithInstants(rest))) === JSON.stringify(withoutMeta(toRestJson(answer)));
      for (const [j, item] of (overGrpc.responses as unknown[]).entries()) {
        if (!sameAnswer(ours[j], item)) grpcMismatches.push({ rest: ours[j], grpc: toRestJson(item) });
      }
      const singles = chunk.filter((_, j) => j % 10 === 0);
      const answers = await Promise.all(
        singles.map(({ flag, request }) =>
          grpc.client.call(service, flag.type === 'VARIANT_FLAG_TYPE' ? 'Variant' : 'Boolean', request),
        ),
      );
      answers.forEach((single, k) => {
        const rest = ours[k * 10].variantResponse ?? ours[k * 10].booleanResponse;
        if (!sameAnswer(rest, single)) grpcMismatches.push({ rest, grpc: toRestJson(single) });
      });
      chunk.forEach(({ flag, request }, j) => {
        if (flag.type === 'VARIANT_FLAG_TYPE') {
          const server = ours[j].variantResponse;
          const theirs = client.evaluateVariant(request);
          const a = { match: server.match, variantKey: server.variantKey, segmentKeys: [...server.segmentKeys].sort() };
          const b = { match: theirs.match, variantKey: theirs.variantKey, segmentKeys: [...theirs.segmentKeys].sort() };
          if (server.match) matched++;
          if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push({ request, ours: a, theirs: b });
        } else {
          const server = ours[j].booleanResponse;
          const theirs = client.evaluateBoolean(request);
          const a = { enabled: server.enabled, segmentKeys: [...server.segmentKeys].sort() };
          const b = { enabled: theirs.enabled, segmentKeys: [...(theirs.segmentKeys ?? [])].sort() };
          if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push({ request, ours: a, theirs: b });
        }
      });
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(mismatches).toHaveLength(0);
    expect(grpcMismatches.slice(0, 5)).toEqual([]);
    expect(grpcMismatches).toHaveLength(0);
    // The data set must exercise matching, not only fall-throughs.
    expect(matched).toBeGreaterThan(PAIRS / 10);
  }, 300_000);
});

/** An answer without what differs between two evaluations of the same request (its id, time and duration), keys sorted. */
function withoutMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMeta);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['requestId', 'timestamp', 'requestDurationMillis'].includes(key))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, item]) => [key, withoutMeta(item)]),
  );
}
