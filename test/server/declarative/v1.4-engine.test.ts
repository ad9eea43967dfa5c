import type { AddressInfo } from 'node:net';
import { FliptClient } from '@flipt-io/flipt-client-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeatures } from '../../../server/flipt/declarative/format.js';
import { importFeatures } from '../../../server/flipt/declarative/import.js';
import { generator } from '../../support/random.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { fixture } from './support.js';

/**
 * The v1.4 file Flipt 1.61 writes (contains and notcontains on strings and entity ids, metadata, namespace
 * mappings), imported, answers as Flipt's own engine (@flipt-io/flipt-client-js, fed from our snapshot)
 * does, on generated entities and contexts that hit and miss each constraint.
 */
const CASES = 3000;
const EMAILS = ['ada@example.com', 'ada+test@example.com', 'bob@example.org', '', 'x@example.comx', '@example.com'];
const ENTITIES = ['user-1', 'test-user-2', 'test-1', 'someone', 'user-', 'USER-3'];

describe.each(dialects)('features.yml 1.4 against Flipt’s engine on %s', (dialect) => {
  let t: TestApp;
  let client: Awaited<ReturnType<typeof FliptClient.init>>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await importFeatures(t.app.ensign.flipt, parseFeatures(fixture('v1.4.yml'), 'v1.4.yml'));
    // the file leaves dark-mode disabled; enabled, its rollout over entity-id constraints decides
    const enabled = { name: 'Dark mode', enabled: true };
    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/namespaces/default/flags/dark-mode',
      payload: enabled,
    });
    expect(updated.json()).toMatchObject({ enabled: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    client = await FliptClient.init({ namespace: 'default', url, updateInterval: 0 });
  });
  afterAll(() => t?.close());

  it(`agrees on ${CASES} generated cases`, async () => {
    const r = generator(14);
    const mismatches: unknown[] = [];
    const seen = new Set<string>();
    const booleanSeen = new Set<string>();
    for (let i = 0; i < CASES; i++) {
      const entityId = r.next() < 0.8 ? r.pick(ENTITIES) : `user-${r.int(1000)}`;
      const email = r.pick(EMAILS);
      const context: Record<string, string> = email ? { email } : {};
      const request = { flagKey: 'checkout', entityId, context };
      const variant = await t.app.inject({ method: 'POST', url: '/evaluate/v1/variant', payload: request });
      const ours = variant.json();
      const theirs = client.evaluateVariant(request);
      const a = [ours.match, ours.variantKey, [...ours.segmentKeys].sort()];
      const b = [theirs.match, theirs.variantKey, [...theirs.segmentKeys].sort()];
      seen.add(JSON.stringify(a));
      if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push({ request, ours: a, theirs: b });

      const booleanRequest = { ...request, flagKey: 'dark-mode' };
      const boolean = (
        await t.app.inject({ method: 'POST', url: '/evaluate/v1/boolean', payload: booleanRequest })
      ).json();
      const their = client.evaluateBoolean(booleanRequest);
      const ourBoolean = JSON.stringify([boolean.enabled, [...boolean.segmentKeys].sort()]);
      const theirBoolean = JSON.stringify([their.enabled, [...(their.segmentKeys ?? [])].sort()]);
      booleanSeen.add(ourBoolean);
      if (ourBoolean !== theirBoolean)
        mismatches.push({ request: booleanRequest, ours: ourBoolean, theirs: theirBoolean });
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // the string rule matched and missed; the entity-id rollout matched and missed
    expect(seen.size).toBe(2);
    expect(booleanSeen.size).toBe(2);
  });
});
