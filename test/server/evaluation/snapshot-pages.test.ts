import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyFlagKey, seedMany } from '../../support/many-flags.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

// More flags than one page of the snapshot loader (server/evaluation/loader.ts reads 5,000 at a time);
// seedMany gives 7 flags in a row one creation time, so the page boundary falls inside such a tie.
const FLAGS = 5010;
const url = '/internal/v1/evaluation/snapshot/namespace/default';

describe.each(dialects)('snapshot of a namespace larger than one page of the loader on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedMany(t.database.url, { flags: FLAGS });
    api = new Api(t.app);
  }, 60_000);
  afterAll(() => t.close());

  it('lists every flag once, by creation time then key, a later page with its default variant', async () => {
    const key = manyFlagKey(FLAGS - 7); // a variant flag on the second page
    const flag = await api.ok('GET', `/api/v1/namespaces/default/flags/${key}`);
    const on = flag.variants.find((variant: { key: string }) => variant.key === 'on');
    await api.ok('PUT', `/api/v1/namespaces/default/flags/${key}`, { name: flag.name, defaultVariantId: on.id });

    const response = await t.app.inject({ method: 'GET', url, headers: { 'x-flipt-accept-server-version': '1.47.0' } });
    expect(response.statusCode).toBe(200);
    const flags = response.json().flags as { key: string; defaultVariant?: unknown }[];
    expect(flags.map((f) => f.key)).toEqual(Array.from({ length: FLAGS }, (_, i) => manyFlagKey(i)));
    expect(flags[FLAGS - 7].defaultVariant).toEqual({ id: on.id, key: 'on', attachment: '' });
    expect(flags.filter((f) => f.defaultVariant)).toHaveLength(1);
    // The ETag is the SHA-1 of the document's bytes.
    expect(response.headers.etag).toBe(createHash('sha1').update(response.rawPayload).digest('hex'));
  });
});
