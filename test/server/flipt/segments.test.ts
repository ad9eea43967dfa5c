import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { client, error, TIMESTAMP, UUID, type Call } from './client.js';

describe.each(dialects)('Flipt segments and constraints on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  const base = '/api/v1/namespaces/ns/segments';
  beforeAll(async () => {
    t = await startTestApp(dialect);
    call = client(t.app);
    await call('POST', '/api/v1/namespaces', { key: 'ns', name: 'NS' });
  });
  afterAll(() => t.close());

  it('creates, replaces and deletes segments', async () => {
    const created = await call('POST', base, {
      key: 'beta',
      name: 'Beta',
      description: 'd',
      matchType: 'ANY_MATCH_TYPE',
    });
    expect(created.body).toEqual({
      key: 'beta',
      name: 'Beta',
      description: 'd',
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: created.body.createdAt,
      constraints: [],
      matchType: 'ANY_MATCH_TYPE',
      namespaceKey: 'ns',
    });
    // Omitting matchType on PUT resets it to ALL.
    const updated = await call('PUT', `${base}/beta`, { name: 'Beta 2' });
    expect(updated.body).toMatchObject({ name: 'Beta 2', description: '', matchType: 'ALL_MATCH_TYPE' });
    expect(await call('POST', base, { key: 'beta', name: 'x' })).toMatchObject({
      status: 400,
      body: error(3, 'segment "ns/beta" is not unique'),
    });
    expect(await call('POST', '/api/v1/namespaces/none/segments', { key: 'x', name: 'x' })).toMatchObject({
      status: 404,
      body: error(5, 'namespace "none" not found'),
    });
    expect(await call('POST', base, { key: 'x', name: 'x', matchType: 'SOME' })).toMatchObject({
      status: 400,
      body: error(3, 'invalid field matchType: must be one of ALL_MATCH_TYPE, ANY_MATCH_TYPE'),
    });
    expect(await call('PUT', `${base}/none`, { name: 'x' })).toMatchObject({
      status: 404,
      body: error(5, 'segment "ns/none" not found'),
    });
    expect(await call('GET', `${base}/none`)).toMatchObject({
      status: 404,
      body: error(5, 'segment "ns/none" not found'),
    });
    expect(await call('DELETE', `${base}/beta`)).toMatchObject({ status: 200, body: {} });
    expect(await call('DELETE', `${base}/beta`)).toMatchObject({ status: 200, body: {} });
  });

  it('stores constraints with lower-cased operators, blanked and normalised values', async () => {
    await call('POST', base, { key: 'c', name: 'C' });
    const url = `${base}/c/constraints`;
    const created = await call('POST', url, {
      type: 'STRING_COMPARISON_TYPE',
      property: 'plan',
      operator: 'EQ',
      value: 'pro',
      description: 'd',
    });
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      segmentKey: 'c',
      type: 'STRING_COMPARISON_TYPE',
      property: 'plan',
      operator: 'eq',
      value: 'pro',
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: created.body.createdAt,
      namespaceKey: 'ns',
      description: 'd',
    });
    const noValue = await call('POST', url, { type: 2, property: 'age', operator: 'present', value: '42' });
    expect(noValue.body).toMatchObject({ type: 'NUMBER_COMPARISON_TYPE', value: '' });
    const datetime = await call('POST', url, {
      type: 'DATETIME_COMPARISON_TYPE',
      property: 'at',
      operator: 'lt',
      value: '2024-01-01T10:00:00.5+02:00',
    });
    expect(datetime.body.value).toBe('2024-01-01T08:00:00Z');
    const date = await call('POST', url, {
      type: 'DATETIME_COMPARISON_TYPE',
      property: 'at',
      operator: 'gte',
      value: '2024-02-29',
    });
    expect(date.body.value).toBe('2024-02-29');
    const list = await call('POST', url, {
      type: 'ENTITY_ID_COMPARISON_TYPE',
      property: 'entityId',
      operator: 'isoneof',
      value: '["a","b"]',
    });
    expect(list.status).toBe(200);
    const segment = await call('GET', `${base}/c`);
    expect(segment.body.constraints.map((c: { id: string }) => c.id)).toEqual([
      created.body.id,
      noValue.body.id,
      datetime.body.id,
      date.body.id,
      list.body.id,
    ]);

    // PUT replaces every field.
    const replaced = await call('PUT', `${url}/${created.body.id}`, {
      type: 'BOOLEAN_COMPARISON_TYPE',
      property: 'beta',
      operator: 'true',
    });
    expect(replaced.body).toMatchObject({
      id: created.body.id,
      type: 'BOOLEAN_COMPARISON_TYPE',
      operator: 'true',
      value: '',
      description: '',
    });
    expect(
      await call('PUT', `${url}/nope`, { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' }),
    ).toMatchObject({
      status: 404,
      body: error(5, 'constraint "nope" not found'),
    });
    expect(await call('DELETE', `${url}/${created.body.id}`)).toMatchObject({ status: 200, body: {} });
    expect((await call('GET', `${base}/c`)).body.constraints).toHaveLength(4);
  });

  it('takes contains and notcontains on strings and entity ids (Flipt 1.57)', async () => {
    await call('POST', base, { key: 'substring', name: 'Substring' });
    const url = `${base}/substring/constraints`;
    for (const constraint of [
      { type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'contains', value: '@example.' },
      { type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'notcontains', value: '+test' },
      { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'contains', value: 'user-' },
      { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'notcontains', value: 'bot' },
    ]) {
      expect(await call('POST', url, constraint)).toMatchObject({ status: 200, body: constraint });
    }
  });

  it("validates constraints with Flipt's messages", async () => {
    await call('POST', base, { key: 'v', name: 'V' });
    const url = `${base}/v/constraints`;
    const many = JSON.stringify(Array.from({ length: 101 }, (_, i) => `v${i}`));
    const cases: [Record<string, unknown>, string, number?][] = [
      [
        { type: 'UNKNOWN_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'x' },
        'invalid constraint type: "UNKNOWN_COMPARISON_TYPE"',
      ],
      [{ property: 'p', operator: 'eq', value: 'x' }, 'invalid constraint type: "UNKNOWN_COMPARISON_TYPE"'],
      [
        { type: 'FANCY', property: 'p', operator: 'eq' },
        'invalid field type: must be one of UNKNOWN_COMPARISON_TYPE, STRING_COMPARISON_TYPE, NUMBER_COMPARISON_TYPE, BOOLEAN_COMPARISON_TYPE, DATETIME_COMPARISON_TYPE, ENTITY_ID_COMPARISON_TYPE',
      ],
      [
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'gt', value: 'x' },
        'constraint operator "gt" is not valid for type string',
      ],
      [
        { type: 'NUMBER_COMPARISON_TYPE', property: 'p', operator: 'prefix', value: '1' },
        'constraint operator "prefix" is not valid for type number',
      ],
      [
        { type: 'BOOLEAN_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'true' },
        'constraint operator "eq" is not valid for type boolean',
      ],
      [
        { type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'empty' },
        'constraint operator "empty" is not valid for type datetime',
      ],
      [
        { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'x' },
        'property is p instead of "entityId"',
      ],
      [
        { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'prefix', value: 'x' },
        'constraint operator "prefix" is not valid for type entityId',
      ],
      [
        { type: 'NUMBER_COMPARISON_TYPE', property: 'p', operator: 'contains', value: '1' },
        'constraint operator "contains" is not valid for type number',
      ],
      [
        { type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'notcontains', value: '2024-01-01' },
        'constraint operator "notcontains" is not valid for type datetime',
      ],
      [
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'contains' },
        'invalid field value: must not be empty',
      ],
      [{ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq' }, 'invalid field value: must not be empty'],
      [{ type: 'STRING_COMPARISON_TYPE', operator: 'eq', value: 'x' }, 'invalid field property: must not be empty'],
      [{ type: 'STRING_COMPARISON_TYPE', property: 'p', value: 'x' }, 'invalid field operator: must not be empty'],
      [
        { type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'yesterday' },
        'parsing datetime from "yesterday"',
      ],
      [
        { type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'eq', value: '2023-02-29' },
        'parsing datetime from "2023-02-29"',
      ],
      [
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'isoneof', value: '[1]' },
        'invalid value provided for property "p" of type string',
      ],
      [
        { type: 'NUMBER_COMPARISON_TYPE', property: 'p', operator: 'isnotoneof', value: '["1"]' },
        'invalid value provided for property "p" of type number',
      ],
      [
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'isoneof', value: 'a,b' },
        'invalid value provided for property "p" of type string',
      ],
      [
        { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'isoneof', value: many },
        'too many values provided for property "p" of type string (maximum 100)',
      ],
      [
        { type: 'STRING_COMPARISON_TYPE', property: 'p'.repeat(256), operator: 'eq', value: 'x' },
        'invalid field property: must be at most 255 characters',
      ],
    ];
    for (const [body, message] of cases) {
      expect(await call('POST', url, body), message).toMatchObject({ status: 400, body: error(3, message) });
    }
    expect(
      await call('POST', `${base}/none/constraints`, {
        type: 'STRING_COMPARISON_TYPE',
        property: 'p',
        operator: 'eq',
        value: 'x',
      }),
    ).toMatchObject({
      status: 404,
      body: error(5, 'segment "ns/none" not found'),
    });
    expect((await call('GET', `${base}/v`)).body.constraints).toEqual([]);
  });

  it('refuses to delete a segment a rule or rollout uses', async () => {
    await call('POST', base, { key: 'used-by-rule', name: 'R' });
    await call('POST', base, { key: 'used-by-rollout', name: 'O' });
    await call('POST', '/api/v1/namespaces/ns/flags', { key: 'f', name: 'F' });
    const rule = await call('POST', '/api/v1/namespaces/ns/flags/f/rules', { segmentKey: 'used-by-rule', rank: 1 });
    const rollout = await call('POST', '/api/v1/namespaces/ns/flags/f/rollouts', {
      rank: 1,
      segment: { segmentKeys: ['used-by-rollout', 'used-by-rule'] },
    });
    expect(await call('DELETE', `${base}/used-by-rule`)).toMatchObject({
      status: 400,
      body: error(3, 'segment "ns/used-by-rule" is in use'),
    });
    expect(await call('DELETE', `${base}/used-by-rollout`)).toMatchObject({
      status: 400,
      body: error(3, 'segment "ns/used-by-rollout" is in use'),
    });
    await call('DELETE', `/api/v1/namespaces/ns/flags/f/rules/${rule.body.id}`);
    await call('DELETE', `/api/v1/namespaces/ns/flags/f/rollouts/${rollout.body.id}`);
    expect((await call('DELETE', `${base}/used-by-rule`)).status).toBe(200);
    expect((await call('DELETE', `${base}/used-by-rollout`)).status).toBe(200);
  });

  it('serves the legacy segment routes on the default namespace', async () => {
    expect((await call('POST', '/api/v1/segments', { key: 'legacy', name: 'L' })).body.namespaceKey).toBe('default');
    const constraint = await call('POST', '/api/v1/segments/legacy/constraints', {
      type: 'STRING_COMPARISON_TYPE',
      property: 'p',
      operator: 'eq',
      value: 'x',
    });
    expect(constraint.body.namespaceKey).toBe('default');
    expect(
      (
        await call('PUT', `/api/v1/segments/legacy/constraints/${constraint.body.id}`, {
          type: 'STRING_COMPARISON_TYPE',
          property: 'q',
          operator: 'neq',
          value: 'y',
        })
      ).body.property,
    ).toBe('q');
    expect((await call('GET', '/api/v1/segments')).body.segments.map((s: { key: string }) => s.key)).toEqual([
      'legacy',
    ]);
    expect((await call('PUT', '/api/v1/segments/legacy', { name: 'L2' })).body.name).toBe('L2');
    expect((await call('DELETE', `/api/v1/segments/legacy/constraints/${constraint.body.id}`)).status).toBe(200);
    expect((await call('DELETE', '/api/v1/segments/legacy')).status).toBe(200);
    expect((await call('GET', '/api/v1/segments/legacy')).status).toBe(404);
  });
});
