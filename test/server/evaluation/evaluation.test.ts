import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

describe.each(dialects)('evaluation API on %s', (dialect) => {
  let test: TestApp;
  let api: Api;
  const variantIds: Record<string, string> = {};

  beforeAll(async () => {
    test = await startTestApp(dialect);
    api = new Api(test.app);
    await api.flag('default', 'flag_001');
    for (const key of ['variant_001', 'variant_002'])
      variantIds[key] = (await api.variant('default', 'flag_001', key, key === 'variant_002' ? '{"x": 1}' : '')).id;
    await api.segment('default', 'everyone', []);
    await api.segment('default', 'premium', [
      ['STRING_COMPARISON_TYPE', 'plan', 'eq', 'premium'],
      ['NUMBER_COMPARISON_TYPE', 'seats', 'gte', '10'],
    ]);
    await api.rule('default', 'flag_001', ['premium'], [[variantIds.variant_001, 100]], 1);
    await api.rule(
      'default',
      'flag_001',
      ['everyone'],
      [
        [variantIds.variant_001, 50],
        [variantIds.variant_002, 50],
      ],
      2,
    );
    await api.flag('default', 'flag_boolean', 'BOOLEAN_FLAG_TYPE', false);
    await api.segmentRollout('default', 'flag_boolean', 1, ['premium'], true);
    await api.threshold('default', 'flag_boolean', 2, 50, true);
  });
  afterAll(() => test.close());

  it('evaluates a variant flag: the 50/50 split (bucket 553) and a constraint match', async () => {
    const split = await api.ok('POST', '/evaluate/v1/variant', {
      flagKey: 'flag_001',
      entityId: 'some-fixed-entity-id',
      context: {},
    });
    expect(split).toMatchObject({
      match: true,
      segmentKeys: ['everyone'],
      reason: 'MATCH_EVALUATION_REASON',
      variantKey: 'variant_002',
      variantAttachment: '{"x":1}',
      flagKey: 'flag_001',
    });
    expect(Object.keys(split)).toEqual([
      'match',
      'segmentKeys',
      'reason',
      'variantKey',
      'variantAttachment',
      'requestId',
      'requestDurationMillis',
      'timestamp',
      'flagKey',
    ]);
    expect(split.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(split.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$/);
    const premium = await api.ok('POST', '/evaluate/v1/variant', {
      requestId: 'r1',
      namespaceKey: 'default',
      flagKey: 'flag_001',
      entityId: 'x',
      context: { plan: 'premium', seats: '12' },
    });
    expect(premium).toMatchObject({
      requestId: 'r1',
      match: true,
      variantKey: 'variant_001',
      segmentKeys: ['premium'],
    });
  });

  it('reflects writes at once: disabling the flag', async () => {
    await api.ok('PUT', '/api/v1/namespaces/default/flags/flag_001', { name: 'flag_001', enabled: false });
    const disabled = await api.ok('POST', '/evaluate/v1/variant', { flagKey: 'flag_001', entityId: 'x' });
    expect(disabled).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '' });
    await api.ok('PUT', '/api/v1/namespaces/default/flags/flag_001', {
      name: 'flag_001',
      enabled: true,
      defaultVariantId: variantIds.variant_001,
    });
    const enabled = await api.ok('POST', '/evaluate/v1/variant', {
      flagKey: 'flag_001',
      entityId: 'some-fixed-entity-id',
    });
    expect(enabled).toMatchObject({ match: true, variantKey: 'variant_002' });
  });

  it('evaluates a boolean flag: segment rollout, threshold (fixed → 9 < 50), default', async () => {
    const segment = await api.ok('POST', '/evaluate/v1/boolean', {
      flagKey: 'flag_boolean',
      entityId: 'hello',
      context: { plan: 'premium', seats: '10' },
    });
    expect(segment).toMatchObject({
      enabled: true,
      reason: 'MATCH_EVALUATION_REASON',
      segmentKeys: ['premium'],
      flagKey: 'flag_boolean',
    });
    expect(Object.keys(segment)).toEqual([
      'enabled',
      'reason',
      'requestId',
      'requestDurationMillis',
      'timestamp',
      'flagKey',
      'segmentKeys',
    ]);
    expect(await api.ok('POST', '/evaluate/v1/boolean', { flagKey: 'flag_boolean', entityId: 'fixed' })).toMatchObject({
      enabled: true,
      reason: 'MATCH_EVALUATION_REASON',
    });
    expect(await api.ok('POST', '/evaluate/v1/boolean', { flagKey: 'flag_boolean', entityId: 'hello' })).toMatchObject({
      enabled: false,
      reason: 'DEFAULT_EVALUATION_REASON',
      segmentKeys: [],
    });
  });

  it('answers Flipt errors: not found, wrong type, bad context', async () => {
    expect(await api.call('POST', '/evaluate/v1/variant', { flagKey: 'nope', entityId: 'x' })).toMatchObject({
      status: 404,
      body: { code: 5, message: 'flag "default/nope" not found' },
    });
    expect(
      await api.call('POST', '/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'flag_001', entityId: 'x' }),
    ).toMatchObject({ status: 404, body: { message: 'flag "other/flag_001" not found' } });
    expect(await api.call('POST', '/evaluate/v1/variant', { flagKey: 'flag_boolean', entityId: 'x' })).toMatchObject({
      status: 400,
      body: { code: 3, message: 'flag type BOOLEAN_FLAG_TYPE invalid' },
    });
    expect(await api.call('POST', '/evaluate/v1/boolean', { flagKey: 'flag_001', entityId: 'x' })).toMatchObject({
      status: 400,
      body: { message: 'flag type VARIANT_FLAG_TYPE invalid' },
    });
    expect(
      (await api.call('POST', '/evaluate/v1/variant', { flagKey: 'flag_001', entityId: 'x', context: { n: 1 } }))
        .status,
    ).toBe(400);
  });

  it('a namespace created after an evaluation missed it is found', async () => {
    expect(
      (await api.call('POST', '/evaluate/v1/boolean', { namespaceKey: 'later', flagKey: 'f', entityId: 'x' })).status,
    ).toBe(404);
    await api.ok('POST', '/api/v1/namespaces', { key: 'later', name: 'Later' });
    await api.flag('later', 'f', 'BOOLEAN_FLAG_TYPE', true);
    expect(
      await api.ok('POST', '/evaluate/v1/boolean', { namespaceKey: 'later', flagKey: 'f', entityId: 'x' }),
    ).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
  });

  it('batch: snake_case request_id, no Content-Type, per-item not found', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/evaluate/v1/batch',
      payload: JSON.stringify({
        request_id: 'batch-1',
        requests: [
          { requestId: 'a', flagKey: 'flag_001', entityId: 'some-fixed-entity-id', context: {} },
          { flagKey: 'flag_boolean', entityId: 'fixed' },
          { namespaceKey: '', flagKey: 'missing', entityId: 'x' },
        ],
      }),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.requestId).toBe('batch-1');
    expect(body.responses).toEqual([
      {
        type: 'VARIANT_EVALUATION_RESPONSE_TYPE',
        variantResponse: expect.objectContaining({
          requestId: 'a',
          variantKey: 'variant_002',
          requestDurationMillis: body.requestDurationMillis,
        }),
      },
      {
        type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE',
        booleanResponse: expect.objectContaining({ requestId: '', enabled: true }),
      },
      {
        type: 'ERROR_EVALUATION_RESPONSE_TYPE',
        errorResponse: { flagKey: 'missing', namespaceKey: '', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
      },
    ]);
  });

  it('legacy evaluate and batch-evaluate', async () => {
    const single = await api.ok('POST', '/api/v1/namespaces/default/evaluate', {
      flagKey: 'flag_001',
      entityId: 'x',
      context: { plan: 'premium', seats: '10' },
    });
    expect(single).toMatchObject({
      entityId: 'x',
      requestContext: { plan: 'premium', seats: '10' },
      match: true,
      flagKey: 'flag_001',
      segmentKey: 'premium',
      value: 'variant_001',
      reason: 'MATCH_EVALUATION_REASON',
      namespaceKey: 'default',
      segmentKeys: ['premium'],
    });
    expect(await api.call('POST', '/api/v1/evaluate', { flagKey: 'flag_001' })).toMatchObject({
      status: 400,
      body: { message: 'invalid field entityId: must not be empty' },
    });
    const batch = await api.ok('POST', '/api/v1/batch-evaluate', {
      requestId: 'b',
      excludeNotFound: true,
      requests: [
        { requestId: 'ignored', flagKey: 'flag_001', entityId: 'some-fixed-entity-id' },
        { flagKey: 'missing', entityId: 'x' },
      ],
    });
    expect(batch.requestId).toBe('b');
    expect(batch.responses).toHaveLength(1);
    expect(batch.responses[0]).toMatchObject({ requestId: '', value: 'variant_002' });
    expect(
      await api.call('POST', '/api/v1/batch-evaluate', { requests: [{ flagKey: 'missing', entityId: 'x' }] }),
    ).toMatchObject({ status: 404 });
    expect(
      await api.call('POST', '/api/v1/batch-evaluate', {
        requests: [{ namespaceKey: 'other', flagKey: 'flag_001', entityId: 'x' }],
      }),
    ).toMatchObject({
      status: 400,
      body: { message: 'invalid field namespace_key: must be the same for all requests if specified' },
    });
  });

  it('snapshot: document, ETag, 304 with the ETag, a new ETag after a write, version gating', async () => {
    const url = '/internal/v1/evaluation/snapshot/namespace/default';
    const first = await test.app.inject({ method: 'GET', url, headers: { 'x-flipt-accept-server-version': '1.47.0' } });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^[0-9a-f]{40}$/);
    const document = first.json();
    expect(document.namespace).toEqual({ key: 'default' });
    const flag = document.flags.find((f: any) => f.key === 'flag_001');
    expect(flag.defaultVariant).toEqual({ id: variantIds.variant_001, key: 'variant_001', attachment: '' });
    expect(flag.rules).toHaveLength(2);
    expect(flag.rules[1].distributions).toEqual([
      {
        id: '',
        ruleId: '',
        variantId: variantIds.variant_001,
        variantKey: 'variant_001',
        variantAttachment: '',
        rollout: 50,
      },
      {
        id: '',
        ruleId: '',
        variantId: variantIds.variant_002,
        variantKey: 'variant_002',
        variantAttachment: '{"x":1}',
        rollout: 50,
      },
    ]);
    expect(flag.rules[0].segments[0]).toMatchObject({
      key: 'premium',
      name: '',
      matchType: 'ALL_SEGMENT_MATCH_TYPE',
      constraints: [
        expect.objectContaining({ type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan' }),
        expect.anything(),
      ],
    });
    // Unset timestamps are omitted, as Flipt v1.54 and later write them (v1.47 wrote null).
    expect(Object.keys(flag.rules[0].segments[0])).not.toContain('createdAt');
    expect(Object.keys(flag.rules[0].segments[0])).not.toContain('updatedAt');
    const boolean = document.flags.find((f: any) => f.key === 'flag_boolean');
    expect(boolean.rollouts).toEqual([
      {
        type: 'SEGMENT_ROLLOUT_TYPE',
        rank: 1,
        segment: {
          value: true,
          segmentOperator: 'OR_SEGMENT_OPERATOR',
          segments: [expect.objectContaining({ key: 'premium' })],
        },
      },
      { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: 50, value: true } },
    ]);

    const cached = await test.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers.etag).toBe(etag);

    const old = await test.app.inject({ method: 'GET', url });
    expect(old.json().flags.find((f: any) => f.key === 'flag_001').defaultVariant).toBeUndefined();

    // The ETag is the document's: a write the document does not show (a segment no rule uses yet)
    // reloads the snapshot and keeps its ETag; one it shows changes it.
    await api.segment('default', 'by-id', [['ENTITY_ID_COMPARISON_TYPE', 'entityId', 'eq', 'u1']]);
    const unchanged = await test.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect([unchanged.statusCode, unchanged.headers.etag]).toEqual([304, etag]);

    await api.rule('default', 'flag_001', ['by-id'], [], 3);
    const changed = await test.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).toMatch(/^[0-9a-f]{40}$/);
    expect(changed.headers.etag).not.toBe(etag);

    await api.ok('PUT', '/api/v1/namespaces/default/flags/flag_boolean', { name: 'renamed', enabled: false });
    const renamed = await test.app.inject({ method: 'GET', url, headers: { 'if-none-match': changed.headers.etag } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers.etag).not.toBe(changed.headers.etag);
    expect(renamed.json().flags.find((f: any) => f.key === 'flag_boolean').name).toBe('renamed');

    const gated = (version?: string) =>
      test.app
        .inject({ method: 'GET', url, headers: version ? { 'x-flipt-accept-server-version': version } : {} })
        .then((r) => r.json());
    const typeOf = (doc: any) =>
      doc.flags.find((f: any) => f.key === 'flag_001').rules[2].segments[0].constraints[0].type;
    expect(typeOf(await gated('1.47.0'))).toBe('ENTITY_ID_CONSTRAINT_COMPARISON_TYPE');
    expect(typeOf(await gated('v1.38'))).toBe('ENTITY_ID_CONSTRAINT_COMPARISON_TYPE');
    expect(typeOf(await gated('1.38.0-rc1'))).toBe('UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
    expect(typeOf(await gated())).toBe('UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
  });

  it('snapshot of an unknown namespace is empty', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/internal/v1/evaluation/snapshot/namespace/nowhere',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ namespace: { key: 'nowhere' }, flags: [] });
  });
});
