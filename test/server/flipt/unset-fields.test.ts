import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { asToken, startAuthApp, type AuthTestApp } from '../auth/helpers.js';

// Flipt v1.54 and later write their answers with protojson's EmitDefaultValues: zero scalars, empty lists
// and empty maps are written, unset message fields are left out. No answer of the protobuf API holds a
// `null` (v1.47's gateway wrote one for each unset message field); the flags here hold no metadata, whose
// own values may be null.

const BOOTSTRAP = 'unset-fields-bootstrap';

/** The paths of every `null` in an answer. */
function nullPaths(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value as object).flatMap(([key, item]) => nullPaths(item, `${path}.${key}`));
}

describe.each(dialects)('unset fields omitted as Flipt v1.61 writes them, on %s', (dialect) => {
  let t: AuthTestApp;
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await asToken(t.app, BOOTSTRAP, { method, url, ...(payload && { payload }) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const ns = '/api/v1/namespaces/default';

  beforeAll(async () => {
    t = await startAuthApp(dialect, {
      required: true,
      methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
    });
    await call('POST', `${ns}/flags`, { key: 'colour', name: 'Colour', type: 'VARIANT_FLAG_TYPE', enabled: true });
    await call('POST', `${ns}/flags`, { key: 'plain', name: 'Plain', type: 'VARIANT_FLAG_TYPE' });
    await call('POST', `${ns}/flags`, { key: 'beta', name: 'Beta', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    const variant = await call('POST', `${ns}/flags/colour/variants`, { key: 'red', attachment: '{"a":1}' });
    await call('PUT', `${ns}/flags/colour`, { name: 'Colour', enabled: true, defaultVariantId: variant.id });
    await call('POST', `${ns}/segments`, { key: 'eu', name: 'EU', matchType: 'ANY_MATCH_TYPE' });
    await call('POST', `${ns}/segments/eu/constraints`, {
      type: 'STRING_COMPARISON_TYPE',
      property: 'region',
      operator: 'contains',
      value: 'eu',
    });
    const rule = await call('POST', `${ns}/flags/colour/rules`, { segmentKey: 'eu', rank: 1 });
    await call('POST', `${ns}/flags/colour/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 100 });
    await call('POST', `${ns}/flags/beta/rollouts`, { rank: 1, threshold: { percentage: 50, value: true } });
    await call('POST', `${ns}/flags/beta/rollouts`, { rank: 2, segment: { segmentKey: 'eu', value: true } });
  });
  afterAll(() => t.close());

  it('writes no null in the management, evaluation, snapshot and auth answers', async () => {
    const context = { region: 'eu-west' };
    const answers: Record<string, unknown> = {
      namespaces: await call('GET', '/api/v1/namespaces'),
      flags: await call('GET', `${ns}/flags`),
      plain: await call('GET', `${ns}/flags/plain`),
      rules: await call('GET', `${ns}/flags/colour/rules`),
      rollouts: await call('GET', `${ns}/flags/beta/rollouts`),
      segments: await call('GET', `${ns}/segments`),
      variant: await call('POST', '/evaluate/v1/variant', { flagKey: 'colour', entityId: 'e', context }),
      boolean: await call('POST', '/evaluate/v1/boolean', { flagKey: 'beta', entityId: 'e', context }),
      batch: await call('POST', '/evaluate/v1/batch', {
        requests: [
          { flagKey: 'colour', entityId: 'e', context },
          { flagKey: 'missing', entityId: 'e' },
        ],
      }),
      legacy: await call('POST', '/api/v1/evaluate', { flagKey: 'plain', entityId: 'e', context }),
      snapshot: await call('GET', '/internal/v1/evaluation/snapshot/namespace/default'),
      methods: await call('GET', '/auth/v1/method'),
      self: await call('GET', '/auth/v1/self'),
      tokens: await call('GET', '/auth/v1/tokens'),
    };
    expect(nullPaths(answers)).toEqual([]);
  });

  it('leaves out the message fields 1.61 leaves unset, and still writes zero values and empty lists', async () => {
    const plain = await call('GET', `${ns}/flags/plain`);
    expect(Object.keys(plain)).not.toContain('defaultVariant');
    expect(Object.keys(plain)).not.toContain('metadata');
    expect(plain).toMatchObject({ description: '', enabled: false, variants: [] });

    const [threshold, segment] = (await call('GET', `${ns}/flags/beta/rollouts`)).rules;
    expect(Object.keys(threshold)).not.toContain('segment');
    expect(Object.keys(segment)).not.toContain('threshold');

    const snapshot = await call('GET', '/internal/v1/evaluation/snapshot/namespace/default');
    const snapshotSegment = snapshot.flags.find((flag: { key: string }) => flag.key === 'colour').rules[0].segments[0];
    expect(snapshotSegment).toEqual({
      key: 'eu',
      name: '',
      description: '',
      matchType: 'ANY_SEGMENT_MATCH_TYPE',
      constraints: [expect.objectContaining({ operator: 'contains', value: 'eu' })],
    });
    expect(Object.keys(snapshot.flags.find((flag: { key: string }) => flag.key === 'plain'))).not.toContain(
      'defaultVariant',
    );

    const self = await call('GET', '/auth/v1/self');
    expect(Object.keys(self)).not.toContain('expiresAt');
    const token = (await call('GET', '/auth/v1/tokens')).authentications[0];
    expect(Object.keys(token)).not.toContain('expiresAt');

    const boolean = await call('POST', '/evaluate/v1/boolean', { flagKey: 'beta', entityId: 'x', context: {} });
    expect(boolean.segmentKeys).toEqual([]);
  });
});
