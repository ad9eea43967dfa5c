import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { evaluateFlag } from '../../../domain/evaluation/index.js';
import { NamespaceSnapshot } from '../../../server/evaluation/cache.js';
import { generator, type Random } from '../../support/random.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

/**
 * A change names the flag or segment it touched, and the snapshot cache reads and compiles only those (and
 * the flags using a changed segment). Generated sequences of writes, with the cache asked at random points
 * (so that several changes are applied at once), must leave it exactly where a full load of the same data
 * is: the same document bytes and ETag, the same compiled flags, the same answers.
 */
const NS = 'incremental';
const FLAGS = Array.from({ length: 10 }, (_, i) => `f${i}`);
const SEGMENTS = Array.from({ length: 5 }, (_, i) => `s${i}`);
const STEPS = 300;

/** The compiled namespace as comparable data: its flags in order, with the constraint tests left out. */
const comparable = (snapshot: NamespaceSnapshot) =>
  JSON.parse(
    JSON.stringify([...snapshot.compiled.flags.values()], (_key, value) =>
      typeof value === 'function' ? undefined : value,
    ),
  );

function constraint(r: Random) {
  return r.pick([
    {
      type: 'STRING_COMPARISON_TYPE',
      property: 'plan',
      operator: r.pick(['eq', 'prefix', 'contains']),
      value: r.pick(['pro', 'free', 'p']),
    },
    { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: r.pick(['gt', 'lte']), value: String(r.int(50)) },
    { type: 'ENTITY_ID_COMPARISON_TYPE', property: '', operator: 'isoneof', value: JSON.stringify(['u1', 'u2', 'u3']) },
    { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: r.pick(['true', 'false']), value: '' },
  ]);
}

/** One write, chosen at random among those the API offers; a refused one (a taken key, a segment in use) changes nothing. */
async function randomWrite(api: Api, r: Random): Promise<void> {
  const flag = r.pick(FLAGS);
  const segment = r.pick(SEGMENTS);
  const base = `/api/v1/namespaces/${NS}`;
  const got = await api.call('GET', `${base}/flags/${flag}`);
  const existing = got.status === 200 ? got.body : undefined;
  switch (r.int(12)) {
    case 0:
    case 1:
      await api.call('POST', `${base}/flags`, {
        key: flag,
        name: flag,
        type: r.pick(['VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE']),
        enabled: r.next() < 0.7,
      });
      return;
    case 2:
      if (!existing) return;
      await api.call('PUT', `${base}/flags/${flag}`, {
        name: `${flag} ${r.int(100)}`,
        description: r.pick(['', 'changed']),
        enabled: r.next() < 0.5,
        defaultVariantId:
          existing.variants.length && r.next() < 0.5 ? r.pick(existing.variants as { id: string }[]).id : '',
      });
      return;
    case 3:
      if (r.next() < 0.5) await api.call('DELETE', `${base}/flags/${flag}`);
      return;
    case 4:
      if (existing?.type === 'VARIANT_FLAG_TYPE') {
        await api.call('POST', `${base}/flags/${flag}/variants`, {
          key: `v${r.int(4)}`,
          attachment: r.pick(['', '{"a":1}']),
        });
      }
      return;
    case 5:
      if (
        (await api.call('POST', `${base}/segments`, { key: segment, name: segment, matchType: 'ALL_MATCH_TYPE' }))
          .status !== 200
      ) {
        await api.call('PUT', `${base}/segments/${segment}`, {
          name: segment,
          matchType: r.pick(['ALL_MATCH_TYPE', 'ANY_MATCH_TYPE']),
        });
      }
      return;
    case 6:
      await api.call('POST', `${base}/segments/${segment}/constraints`, constraint(r));
      return;
    case 7: {
      const found = await api.call('GET', `${base}/segments/${segment}`);
      const constraints = found.body?.constraints ?? [];
      if (constraints.length)
        await api.call(
          'DELETE',
          `${base}/segments/${segment}/constraints/${r.pick(constraints as { id: string }[]).id}`,
        );
      else await api.call('DELETE', `${base}/segments/${segment}`);
      return;
    }
    case 8:
    case 9:
      if (existing?.type === 'VARIANT_FLAG_TYPE') {
        const rule = await api.call('POST', `${base}/flags/${flag}/rules`, {
          segmentKeys: [segment, r.pick(SEGMENTS)].filter((key, i, keys) => keys.indexOf(key) === i),
          segmentOperator: r.pick(['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR']),
          rank: 1,
        });
        if (rule.status === 200 && existing.variants.length) {
          await api.call('POST', `${base}/flags/${flag}/rules/${rule.body.id}/distributions`, {
            variantId: r.pick(existing.variants as { id: string }[]).id,
            rollout: r.pick([100, 50, 33.3]),
          });
        }
      } else if (existing) {
        await api.call(
          'POST',
          `${base}/flags/${flag}/rollouts`,
          r.next() < 0.5
            ? { rank: 1, threshold: { percentage: r.int(101), value: r.next() < 0.5 } }
            : { rank: 1, segment: { segmentKey: segment, value: r.next() < 0.5 } },
        );
      }
      return;
    case 10: {
      if (!existing) return;
      const kind = existing.type === 'VARIANT_FLAG_TYPE' ? 'rules' : 'rollouts';
      const list = (await api.call('GET', `${base}/flags/${flag}/${kind}`)).body.rules as { id: string }[];
      if (list.length === 0) return;
      if (r.next() < 0.5) await api.call('DELETE', `${base}/flags/${flag}/${kind}/${r.pick(list).id}`);
      else {
        const ids = list.map((rule) => rule.id).reverse();
        await api.call(
          'PUT',
          `${base}/flags/${flag}/${kind}/order`,
          kind === 'rules' ? { ruleIds: ids } : { rolloutIds: ids },
        );
      }
      return;
    }
    case 11:
      // deleted and created again under the same key: it moves to the end of the list order
      if (!existing) return;
      await api.call('DELETE', `${base}/flags/${flag}`);
      await api.call('POST', `${base}/flags`, { key: flag, name: flag, type: existing.type, enabled: true });
      return;
  }
}

describe.each(dialects)('snapshots kept by applying what changed, on %s', (dialect) => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = new Api(t.app);
    await api.ok('POST', '/api/v1/namespaces', { key: NS, name: NS });
  });
  afterAll(() => t?.close());

  it('equal a full load after every generated sequence of changes', async () => {
    const { flipt, snapshots } = t.app.ensign;
    const r = generator(dialect === 'sqlite' ? 51 : 52);
    await snapshots.get(NS);
    const full = vi.spyOn(flipt, 'loadNamespace');
    const partial = vi.spyOn(flipt, 'loadNamespaceParts');
    let checks = 0;
    for (let step = 0; step < STEPS; step++) {
      await randomWrite(api, r);
      if (r.next() < 0.6) continue;
      checks++;
      const kept = await snapshots.get(NS);
      const loaded = new NamespaceSnapshot(await flipt.loadNamespace(NS));
      expect(kept.json('current').toString(), `after step ${step}`).toBe(loaded.json('current').toString());
      expect(kept.etag).toBe(loaded.etag);
      expect(comparable(kept)).toEqual(comparable(loaded));
      for (const flagKey of loaded.compiled.flags.keys()) {
        for (const entityId of ['u1', 'u7']) {
          const request = { flagKey, entityId, context: { plan: r.pick(['pro', 'free']), seats: '20', beta: 'true' } };
          expect(evaluateFlag(kept.compiled, request)).toEqual(evaluateFlag(loaded.compiled, request));
        }
      }
      for (const segmentKey of SEGMENTS)
        expect(kept.segment(segmentKey)?.constraints.length).toBe(loaded.segment(segmentKey)?.constraints.length);
    }
    expect(checks).toBeGreaterThan(50);
    expect(partial.mock.calls.length).toBeGreaterThan(checks / 2);
    // the full loads above, and the fallbacks: a flag deleted and created again between two loads
    expect(full.mock.calls.length - checks).toBeLessThan(partial.mock.calls.length / 2);
    const final = (await snapshots.get(NS)).loaded.document.flags.length;
    expect(final).toBeGreaterThan(0);
  });
});
