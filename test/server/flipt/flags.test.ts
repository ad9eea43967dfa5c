import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { openDatabase } from '../../../server/db/index.js';
import { client, error, TIMESTAMP, UUID, type Call } from './client.js';

describe.each(dialects)('Flipt flags and variants on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    call = client(t.app);
    await call('POST', '/api/v1/namespaces', { key: 'ns', name: 'NS' });
  });
  afterAll(() => t.close());

  it("creates a flag in Flipt's shape: no defaultVariant, Get omits unset metadata, List emits {}", async () => {
    const created = await call('POST', '/api/v1/namespaces/ns/flags', {
      key: 'f1',
      name: 'F1',
      enabled: true,
      type: 'VARIANT_FLAG_TYPE',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      key: 'f1',
      name: 'F1',
      description: '',
      enabled: true,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: created.body.createdAt,
      variants: [],
      namespaceKey: 'ns',
      type: 'VARIANT_FLAG_TYPE',
    });
    expect((await call('GET', '/api/v1/namespaces/ns/flags/f1')).body).toEqual(created.body);
    const list = await call('GET', '/api/v1/namespaces/ns/flags');
    expect(list.body.flags[0]).toEqual({ ...created.body, metadata: {} });
  });

  it('accepts snake_case, enum numbers, numeric strings and "true"; the path wins over the body', async () => {
    const created = await call('POST', '/api/v1/namespaces/ns/flags', {
      key: 'bool1',
      name: 'B',
      type: 1,
      enabled: 'true',
      namespace_key: 'elsewhere',
      metadata: { team: 'x', nested: { a_b: 1 } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      type: 'BOOLEAN_FLAG_TYPE',
      enabled: true,
      namespaceKey: 'ns',
      metadata: { team: 'x', nested: { a_b: 1 } },
    });
    const bySnake = await call('POST', '/api/v1/namespaces/ns/segments', {
      key: 's-snake',
      name: 'S',
      match_type: 'ANY_MATCH_TYPE',
    });
    expect(bySnake.body.matchType).toBe('ANY_MATCH_TYPE');
  });

  it('answers 400 naming the field for wrong types and unknown enum names', async () => {
    const cases: [unknown, string][] = [
      [
        { key: 'x', name: 'X', type: 'NOPE' },
        'invalid field type: must be one of VARIANT_FLAG_TYPE, BOOLEAN_FLAG_TYPE',
      ],
      [{ key: 'x', name: 'X', type: 7 }, 'invalid field type: must be one of VARIANT_FLAG_TYPE, BOOLEAN_FLAG_TYPE'],
      [{ key: 'x', name: 'X', enabled: 'yes' }, 'invalid field enabled: must be a boolean'],
      [{ key: 'x', name: 'X', metadata: [1] }, 'invalid field metadata: must be a JSON object'],
      [{ key: 'x', name: ['X'] }, 'invalid field name: must be a string'],
      [{ key: 'x y', name: 'X' }, 'invalid field key: contains invalid characters'],
      [{ key: 'x\u0000', name: 'X' }, 'invalid field key: must not contain NUL characters'],
    ];
    for (const [body, message] of cases) {
      expect(await call('POST', '/api/v1/namespaces/ns/flags', body)).toMatchObject({
        status: 400,
        body: error(3, message),
      });
    }
    expect((await call('GET', '/api/v1/namespaces/ns/flags/x')).status).toBe(404);
  });

  it('refuses duplicates and missing namespaces', async () => {
    await call('POST', '/api/v1/namespaces/ns/flags', { key: 'dup', name: 'D' });
    expect(await call('POST', '/api/v1/namespaces/ns/flags', { key: 'dup', name: 'D' })).toMatchObject({
      status: 400,
      body: error(3, 'flag "ns/dup" is not unique'),
    });
    expect(await call('POST', '/api/v1/namespaces/none/flags', { key: 'f', name: 'F' })).toMatchObject({
      status: 404,
      body: error(5, 'namespace "none" not found'),
    });
    expect(await call('GET', '/api/v1/namespaces/ns/flags/none')).toMatchObject({
      status: 404,
      body: error(5, 'flag "ns/none" not found'),
    });
    expect(await call('PUT', '/api/v1/namespaces/ns/flags/none', { name: 'x' })).toMatchObject({
      status: 404,
      body: error(5, 'flag "ns/none" not found'),
    });
  });

  it('adds variants with compacted attachments and enforces their rules', async () => {
    await call('POST', '/api/v1/namespaces/ns/flags', { key: 'colors', name: 'Colors' });
    const red = await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', {
      key: 'red',
      name: 'Red',
      attachment: '{ "hex" : "#f00",\n "big": 12345678901234567890 }',
    });
    expect(red.status).toBe(200);
    expect(red.body).toEqual({
      id: expect.stringMatching(UUID),
      flagKey: 'colors',
      key: 'red',
      name: 'Red',
      description: '',
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: red.body.createdAt,
      attachment: '{"hex":"#f00","big":12345678901234567890}',
      namespaceKey: 'ns',
    });
    expect(await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', { key: 'red' })).toMatchObject({
      status: 400,
      body: error(3, 'variant "red" is not unique for flag "ns/colors"'),
    });
    expect(
      await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', { key: 'bad', attachment: '{nope' }),
    ).toMatchObject({
      status: 400,
      body: error(3, 'invalid field attachment: must be a json string'),
    });
    expect(await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', { key: '' })).toMatchObject({
      status: 400,
      body: error(3, 'invalid field key: must not be empty'),
    });
    const big = JSON.stringify({ x: 'y'.repeat(1_100_000) });
    expect(
      await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', { key: 'huge', attachment: big }),
    ).toMatchObject({
      status: 413,
      body: error(8, 'request body is too large (the limit is 1048576 bytes)'),
    });
    const justOver = JSON.stringify('y'.repeat(1_024_000));
    expect(
      await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', { key: 'huge', attachment: justOver }),
    ).toMatchObject({
      status: 400,
      body: error(3, 'invalid field attachment: must be less than 1000 KB'),
    });
    expect(await call('POST', '/api/v1/namespaces/ns/flags/missing/variants', { key: 'a' })).toMatchObject({
      status: 404,
      body: error(5, 'flag "ns/missing" not found'),
    });

    const blue = await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', { key: 'blue' });
    // PUT replaces every field; a key taken by a sibling is refused.
    expect(
      await call('PUT', `/api/v1/namespaces/ns/flags/colors/variants/${blue.body.id}`, { key: 'red' }),
    ).toMatchObject({
      status: 400,
      body: error(3, 'variant "red" is not unique for flag "ns/colors"'),
    });
    const renamed = await call('PUT', `/api/v1/namespaces/ns/flags/colors/variants/${red.body.id}`, {
      key: 'crimson',
      attachment: '[1, 2]',
    });
    expect(renamed.body).toMatchObject({ id: red.body.id, key: 'crimson', name: '', attachment: '[1,2]' });
    expect(await call('PUT', '/api/v1/namespaces/ns/flags/colors/variants/unknown-id', { key: 'zzz' })).toMatchObject({
      status: 404,
      body: error(5, 'variant "zzz" not found'),
    });
    const flag = await call('GET', '/api/v1/namespaces/ns/flags/colors');
    expect(flag.body.variants.map((v: { key: string }) => v.key)).toEqual(['crimson', 'blue']);
  });

  it('replaces a flag on PUT: default variant set, then cleared when omitted; metadata kept unless given', async () => {
    await call('POST', '/api/v1/namespaces/ns/flags', {
      key: 'put',
      name: 'Put',
      description: 'd',
      enabled: true,
      metadata: { a: 1 },
    });
    const variant = await call('POST', '/api/v1/namespaces/ns/flags/put/variants', { key: 'v' });
    const withDefault = await call('PUT', '/api/v1/namespaces/ns/flags/put', {
      name: 'Put',
      defaultVariantId: variant.body.id,
    });
    expect(withDefault.body).toMatchObject({
      description: '',
      enabled: false,
      metadata: { a: 1 },
      defaultVariant: variant.body,
    });
    const cleared = await call('PUT', '/api/v1/namespaces/ns/flags/put', { name: 'Put', metadata: {} });
    expect(cleared.body.defaultVariant).toBeUndefined();
    expect(cleared.body.metadata).toBeUndefined();
    expect((await call('GET', '/api/v1/namespaces/ns/flags/put')).body).not.toHaveProperty('metadata');

    const other = await call('POST', '/api/v1/namespaces/ns/flags/colors/variants', { key: 'other' });
    expect(
      await call('PUT', '/api/v1/namespaces/ns/flags/put', { name: 'Put', defaultVariantId: other.body.id }),
    ).toMatchObject({
      status: 400,
      body: error(3, `variant "${other.body.id}" not found for flag "ns/put"`),
    });
    expect(await call('PUT', '/api/v1/namespaces/ns/flags/put', { name: '' })).toMatchObject({
      status: 400,
      body: error(3, 'invalid field name: must not be empty'),
    });
    expect(
      await call('PUT', '/api/v1/namespaces/ns/flags/put', { name: 'P', type: 'BOOLEAN_FLAG_TYPE' }),
    ).toMatchObject({
      status: 200,
      body: { type: 'VARIANT_FLAG_TYPE' },
    });
  });

  it('deleting the default variant leaves the flag without one; deleting a flag cascades and is idempotent', async () => {
    await call('POST', '/api/v1/namespaces/ns/flags', { key: 'gone', name: 'Gone' });
    const variant = await call('POST', '/api/v1/namespaces/ns/flags/gone/variants', { key: 'v' });
    await call('PUT', '/api/v1/namespaces/ns/flags/gone', { name: 'Gone', defaultVariantId: variant.body.id });
    await call('POST', '/api/v1/namespaces/ns/segments', { key: 'seg-gone', name: 'S' });
    const rule = await call('POST', '/api/v1/namespaces/ns/flags/gone/rules', { segmentKey: 'seg-gone', rank: 1 });
    await call('POST', `/api/v1/namespaces/ns/flags/gone/rules/${rule.body.id}/distributions`, {
      variantId: variant.body.id,
      rollout: 100,
    });
    await call('POST', '/api/v1/namespaces/ns/flags/gone/rollouts', {
      rank: 1,
      segment: { segmentKey: 'seg-gone', value: true },
    });

    expect(await call('DELETE', `/api/v1/namespaces/ns/flags/gone/variants/${variant.body.id}`)).toMatchObject({
      status: 200,
      body: {},
    });
    const flag = await call('GET', '/api/v1/namespaces/ns/flags/gone');
    expect(flag.body.defaultVariant).toBeUndefined();
    expect(flag.body.variants).toEqual([]);
    expect((await call('GET', `/api/v1/namespaces/ns/flags/gone/rules/${rule.body.id}`)).body.distributions).toEqual(
      [],
    );
    expect((await call('DELETE', `/api/v1/namespaces/ns/flags/gone/variants/${variant.body.id}`)).status).toBe(200);

    expect(await call('DELETE', '/api/v1/namespaces/ns/flags/gone')).toMatchObject({ status: 200, body: {} });
    expect(await call('DELETE', '/api/v1/namespaces/ns/flags/gone')).toMatchObject({ status: 200, body: {} });
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      for (const table of ['rules', 'rollouts', 'variants', 'rule_segments', 'rollout_segment_references'] as const) {
        const rows = await database.db
          .selectFrom(table)
          .selectAll()
          .where('namespace_key', '=', 'ns')
          .where(
            table === 'rule_segments' || table === 'rollout_segment_references' ? 'segment_key' : 'flag_key',
            '=',
            table === 'rule_segments' || table === 'rollout_segment_references' ? 'seg-gone' : 'gone',
          )
          .execute();
        expect(rows, table).toEqual([]);
      }
    } finally {
      await database.close();
    }
    // The segment is free again.
    expect((await call('DELETE', '/api/v1/namespaces/ns/segments/seg-gone')).status).toBe(200);
  });

  it('serves the legacy routes on the default namespace', async () => {
    const created = await call('POST', '/api/v1/flags', { key: 'legacy', name: 'L' });
    expect(created.body.namespaceKey).toBe('default');
    expect((await call('GET', '/api/v1/namespaces/default/flags/legacy')).status).toBe(200);
    expect((await call('GET', '/api/v1/flags')).body.flags.map((f: { key: string }) => f.key)).toEqual(['legacy']);
    const variant = await call('POST', '/api/v1/flags/legacy/variants', { key: 'a' });
    expect(variant.body.namespaceKey).toBe('default');
    expect((await call('PUT', '/api/v1/flags/legacy', { name: 'L2' })).body.name).toBe('L2');
    expect((await call('DELETE', `/api/v1/flags/legacy/variants/${variant.body.id}`)).status).toBe(200);
    expect((await call('DELETE', '/api/v1/flags/legacy')).status).toBe(200);
    expect((await call('GET', '/api/v1/flags/legacy')).status).toBe(404);
  });
});
