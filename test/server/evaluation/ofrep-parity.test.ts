import { FliptProvider } from '@openfeature/flipt-provider';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature, type EvaluationContext } from '@openfeature/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

/** A small seeded generator, so that a failure names a set of flags that can be made again. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { next, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

const PLANS = ['free', 'pro', 'team'] as const;
const COUNTRIES = ['fr', 'de', 'us'] as const;
const DEFAULT = 'code-default';

/**
 * The same flags and contexts through Flipt's own OpenFeature provider (`/evaluate/v1`) and the OFREP
 * provider: they must agree. The Flipt provider answers the caller's default whenever nothing
 * matched, so an OFREP answer other than TARGETING_MATCH is compared as that default.
 */
describe('@openfeature/flipt-provider and @openfeature/ofrep-provider agree', () => {
  const seed = 20261125;
  const random = generator(seed);
  let t: TestApp;
  const variantFlags: string[] = [];
  const booleanFlags: string[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const api = new Api(t.app);
    for (const plan of PLANS)
      await api.segment('default', `plan-${plan}`, [['STRING_COMPARISON_TYPE', 'plan', 'eq', plan]]);
    for (const country of COUNTRIES) {
      await api.segment('default', `country-${country}`, [['STRING_COMPARISON_TYPE', 'country', 'eq', country]]);
    }
    await api.segment('default', 'everyone', [], 'ANY_MATCH_TYPE');
    const segments = [...PLANS.map((p) => `plan-${p}`), ...COUNTRIES.map((c) => `country-${c}`), 'everyone'];
    for (let i = 0; i < 12; i++) {
      const key = `variant-${i}`;
      await api.flag('default', key, 'VARIANT_FLAG_TYPE', random.next() > 0.15);
      const variants = [];
      for (const name of ['a', 'b', 'c']) variants.push(await api.variant('default', key, `${key}-${name}`));
      for (let rank = 1; rank <= 1 + Math.floor(random.next() * 3); rank++) {
        const first = Math.floor(random.next() * 100);
        await api.rule(
          'default',
          key,
          [random.pick(segments)],
          [
            [variants[0].id, first],
            [variants[1].id, 100 - first],
          ],
          rank,
        );
      }
      variantFlags.push(key);
    }
    for (let i = 0; i < 8; i++) {
      const key = `boolean-${i}`;
      await api.flag('default', key, 'BOOLEAN_FLAG_TYPE', random.next() > 0.3);
      await api.segmentRollout('default', key, 1, [random.pick(segments)], random.next() > 0.5);
      await api.threshold('default', key, 2, Math.floor(random.next() * 100), random.next() > 0.5);
      booleanFlags.push(key);
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    await OpenFeature.setProviderAndWait('parity-flipt', new FliptProvider('default', { url: base }));
    await OpenFeature.setProviderAndWait('parity-ofrep', new OFREPProvider({ baseUrl: base }));
  });
  afterAll(() => t.close());

  it(`on ${12 + 8} generated flags and 25 contexts (seed ${seed})`, async () => {
    const flipt = OpenFeature.getClient('parity-flipt');
    const ofrep = OpenFeature.getClient('parity-ofrep');
    const contexts: EvaluationContext[] = Array.from({ length: 25 }, (_, i) => ({
      targetingKey: `user-${i}`,
      plan: random.pick(PLANS),
      country: random.pick(COUNTRIES),
    }));
    let matched = 0;
    for (const context of contexts) {
      for (const key of variantFlags) {
        const viaOfrep = await ofrep.getStringDetails(key, DEFAULT, context);
        const viaFlipt = await flipt.getStringDetails(key, DEFAULT, context);
        expect(viaOfrep.errorCode, key).toBeUndefined();
        const expected = viaOfrep.reason === 'TARGETING_MATCH' ? viaOfrep.value : DEFAULT;
        expect([key, context, viaFlipt.value]).toEqual([key, context, expected]);
        if (viaOfrep.reason === 'DISABLED') expect(viaFlipt.reason).toBe('DISABLED');
        if (viaOfrep.reason === 'TARGETING_MATCH') matched++;
      }
      for (const key of booleanFlags) {
        const viaOfrep = await ofrep.getBooleanValue(key, false, context);
        const viaFlipt = await flipt.getBooleanValue(key, false, context);
        expect([key, context, viaFlipt]).toEqual([key, context, viaOfrep]);
      }
    }
    // The generated set exercises matches and misses alike.
    expect(matched).toBeGreaterThan(25);
    expect(matched).toBeLessThan(contexts.length * variantFlags.length);
  });
});
