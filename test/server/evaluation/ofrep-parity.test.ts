import { FliptProvider } from '@openfeature/flipt-provider';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature } from '@openfeature/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeneratedFlags, type GeneratedFlags } from '../../support/generated-flags.js';
import { startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

const DEFAULT = 'code-default';

/**
 * The same flags and contexts through Flipt's own OpenFeature provider (`/evaluate/v1`) and the OFREP
 * provider: they must agree. The Flipt provider answers the caller's default whenever nothing
 * matched, so an OFREP answer other than TARGETING_MATCH is compared as that default.
 */
describe('@openfeature/flipt-provider and @openfeature/ofrep-provider agree', () => {
  const seed = 20261125;
  let t: TestApp;
  let generated: GeneratedFlags;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const api = new Api(t.app);
    generated = await createGeneratedFlags((path, body) => api.ok('POST', `/api/v1/namespaces/default${path}`, body), {
      seed,
      variants: 12,
      booleans: 8,
      contexts: 25,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    await OpenFeature.setProviderAndWait('parity-flipt', new FliptProvider('default', { url: base }));
    await OpenFeature.setProviderAndWait('parity-ofrep', new OFREPProvider({ baseUrl: base }));
  });
  afterAll(() => t.close());

  it(`on ${12 + 8} generated flags and 25 contexts (seed ${seed})`, async () => {
    const flipt = OpenFeature.getClient('parity-flipt');
    const ofrep = OpenFeature.getClient('parity-ofrep');
    const { contexts, variantFlags, booleanFlags } = generated;
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
