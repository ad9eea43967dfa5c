import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { client, error, TIMESTAMP, UUID, type Call } from './client.js';

describe.each(dialects)('Flipt rules and distributions on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  const flag = '/api/v1/namespaces/ns/flags/f';
  const rules = `${flag}/rules`;
  let variant: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    call = client(t.app);
    await call('POST', '/api/v1/namespaces', { key: 'ns', name: 'NS' });
    await call('POST', '/api/v1/namespaces/ns/flags', { key: 'f', name: 'F' });
    variant = (await call('POST', `${flag}/variants`, { key: 'on' })).body.id;
    for (const key of ['s1', 's2', 's3']) await call('POST', '/api/v1/namespaces/ns/segments', { key, name: key });
  });
  afterAll(() => t.close());

  const ranks = async () =>
    (await call('GET', rules)).body.rules.map((r: { id: string; rank: number }) => [r.id, r.rank]);

  it('creates rules with one segment as segmentKey and several as segmentKeys', async () => {
    const one = await call('POST', rules, { segmentKey: 's1', segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 1 });
    expect(one.body).toEqual({
      id: expect.stringMatching(UUID),
      flagKey: 'f',
      segmentKey: 's1',
      distributions: [],
      rank: 1,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: one.body.createdAt,
      namespaceKey: 'ns',
      segmentKeys: [],
      segmentOperator: 'OR_SEGMENT_OPERATOR',
    });
    const many = await call('POST', rules, { segment_keys: ['s2', 's1', 's2'], segment_operator: 1, rank: '2' });
    expect(many.body).toMatchObject({
      segmentKey: '',
      segmentKeys: ['s1', 's2'],
      segmentOperator: 'AND_SEGMENT_OPERATOR',
      rank: 2,
    });
    const single = await call('POST', rules, { segmentKeys: ['s3'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 3 });
    expect(single.body).toMatchObject({ segmentKey: 's3', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });
    expect((await call('GET', `${rules}/${many.body.id}`)).body).toEqual(many.body);

    // PUT replaces the segments and operator; the rank stays.
    const updated = await call('PUT', `${rules}/${one.body.id}`, {
      segmentKeys: ['s3', 's2'],
      segmentOperator: 'AND_SEGMENT_OPERATOR',
      rank: 9,
    });
    expect(updated.body).toMatchObject({
      id: one.body.id,
      rank: 1,
      segmentKey: '',
      segmentKeys: ['s2', 's3'],
      segmentOperator: 'AND_SEGMENT_OPERATOR',
    });
    const back = await call('PUT', `${rules}/${one.body.id}`, { segmentKey: 's1' });
    expect(back.body).toMatchObject({ segmentKey: 's1', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });

    for (const id of [one.body.id, many.body.id, single.body.id]) await call('DELETE', `${rules}/${id}`);
  });

  it("validates rules with Flipt's messages", async () => {
    const cases: [unknown, number, unknown][] = [
      [{ rank: 1 }, 400, error(3, 'invalid field segmentKey or segmentKeys: must not be empty')],
      [
        { segmentKey: 's1', segmentKeys: ['s2'], rank: 1 },
        400,
        error(3, 'invalid field segmentKey or segmentKeys: only one can be present'),
      ],
      [{ segmentKey: 's1' }, 400, error(3, 'invalid field rank: must be greater than 0')],
      [{ segmentKey: 's1', rank: -3 }, 400, error(3, 'invalid field rank: must be greater than 0')],
      [{ segmentKey: 's1', rank: 1.5 }, 400, error(3, 'invalid field rank: must be an integer')],
      [{ segmentKey: 's1', rank: '0x10' }, 400, error(3, 'invalid field rank: must be a number')],
      [
        { segmentKey: 's1', rank: 1, segmentOperator: 'XOR' },
        400,
        error(3, 'invalid field segmentOperator: must be one of OR_SEGMENT_OPERATOR, AND_SEGMENT_OPERATOR'),
      ],
      [{ segmentKeys: 's1', rank: 1 }, 400, error(3, 'invalid field segmentKeys: must be a list of strings')],
      [{ segmentKey: 'nope', rank: 1 }, 404, error(5, 'flag "ns/f" or segment "ns/nope" not found')],
      [{ segmentKeys: ['s1', 'nope'], rank: 1 }, 404, error(5, 'flag "ns/f" or segment "ns/nope" not found')],
    ];
    for (const [body, status, expected] of cases) {
      expect(await call('POST', rules, body)).toMatchObject({ status, body: expected });
    }
    expect(await call('POST', '/api/v1/namespaces/ns/flags/none/rules', { segmentKey: 's1', rank: 1 })).toMatchObject({
      status: 404,
      body: error(5, 'flag "ns/none" or segment "ns/s1" not found'),
    });
    expect(await call('GET', `${rules}/none`)).toMatchObject({
      status: 404,
      body: error(5, 'rule "ns/none" not found'),
    });
    expect(await call('PUT', `${rules}/none`, { segmentKey: 's1' })).toMatchObject({
      status: 404,
      body: error(5, 'rule "ns/none" not found'),
    });
    expect((await call('GET', rules)).body).toEqual({ rules: [], nextPageToken: '', totalCount: 0 });
  });

  it('orders rules and renumbers them after a delete', async () => {
    const ids: string[] = [];
    for (const rank of [1, 2, 3, 4]) ids.push((await call('POST', rules, { segmentKey: 's1', rank })).body.id);
    expect(await call('PUT', `${rules}/order`, { ruleIds: [ids[3], ids[2], ids[1], ids[0], 'unknown'] })).toMatchObject(
      { status: 200, body: {} },
    );
    expect(await ranks()).toEqual([
      [ids[3], 1],
      [ids[2], 2],
      [ids[1], 3],
      [ids[0], 4],
    ]);
    expect(await call('PUT', `${rules}/order`, { ruleIds: [ids[0]] })).toMatchObject({
      status: 400,
      body: error(3, 'invalid field ruleIds: must contain atleast 2 elements'),
    });
    expect(await call('DELETE', `${rules}/${ids[2]}`)).toMatchObject({ status: 200, body: {} });
    expect(await ranks()).toEqual([
      [ids[3], 1],
      [ids[1], 2],
      [ids[0], 3],
    ]);
    expect((await call('DELETE', `${rules}/${ids[2]}`)).status).toBe(200);
    for (const id of ids) await call('DELETE', `${rules}/${id}`);
  });

  it('pages rules by rank and requires a limit with a page token', async () => {
    const ids: string[] = [];
    for (const rank of [1, 2, 3]) ids.push((await call('POST', rules, { segmentKey: 's2', rank })).body.id);
    const first = await call('GET', `${rules}?limit=2`);
    expect(first.body.rules.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 2));
    expect(first.body.totalCount).toBe(3);
    expect(JSON.parse(Buffer.from(first.body.nextPageToken, 'base64').toString())).toEqual({ key: ids[2], offset: 2 });
    const second = await call('GET', `${rules}?limit=2&page_token=${encodeURIComponent(first.body.nextPageToken)}`);
    expect(second.body).toMatchObject({ nextPageToken: '', totalCount: 3 });
    expect(second.body.rules.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
    expect(await call('GET', `${rules}?pageToken=${encodeURIComponent(first.body.nextPageToken)}`)).toMatchObject({
      status: 400,
      body: error(3, 'limit must be set when offset or pageToken is set'),
    });
    for (const id of ids) await call('DELETE', `${rules}/${id}`);
  });

  it('adds, replaces and deletes distributions', async () => {
    const rule = (await call('POST', rules, { segmentKey: 's1', rank: 1 })).body;
    const url = `${rules}/${rule.id}/distributions`;
    const created = await call('POST', url, { variantId: variant, rollout: 33.3 });
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      ruleId: rule.id,
      variantId: variant,
      rollout: 33.3,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: created.body.createdAt,
    });
    expect((await call('GET', `${rules}/${rule.id}`)).body.distributions).toEqual([created.body]);
    const updated = await call('PUT', `${url}/${created.body.id}`, { variantId: variant, rollout: '50' });
    expect(updated.body).toMatchObject({ id: created.body.id, rollout: 50 });

    const cases: [unknown, number, unknown][] = [
      [
        { variantId: variant, rollout: 100.5 },
        400,
        error(3, "invalid field rollout: must be less than or equal to '100'"),
      ],
      [
        { variantId: variant, rollout: -1 },
        400,
        error(3, "invalid field rollout: must be greater than or equal to '0'"),
      ],
      [{ rollout: 1 }, 400, error(3, 'invalid field variantId: must not be empty')],
      [
        { variantId: 'nope', rollout: 1 },
        404,
        error(5, `variant "nope", rule "${rule.id}", flag "f" in namespace "ns" not found`),
      ],
    ];
    for (const [body, status, expected] of cases)
      expect(await call('POST', url, body)).toMatchObject({ status, body: expected });
    expect(await call('POST', `${rules}/nope/distributions`, { variantId: variant, rollout: 1 })).toMatchObject({
      status: 404,
      body: error(5, `variant "${variant}", rule "nope", flag "f" in namespace "ns" not found`),
    });
    expect(await call('PUT', `${url}/nope`, { variantId: variant, rollout: 1 })).toMatchObject({
      status: 404,
      body: error(5, 'distribution "nope" not found'),
    });

    expect(await call('DELETE', `${url}/${created.body.id}`)).toMatchObject({
      status: 400,
      body: error(3, 'invalid field variantId: must not be empty'),
    });
    // Through another flag's path nothing is deleted.
    await call('POST', '/api/v1/namespaces/ns/flags', { key: 'other', name: 'Other' });
    const elsewhere = `/api/v1/namespaces/ns/flags/other/rules/${rule.id}/distributions/${created.body.id}?variantId=${variant}`;
    expect(await call('DELETE', elsewhere)).toMatchObject({ status: 200, body: {} });
    expect((await call('GET', `${rules}/${rule.id}`)).body.distributions).toHaveLength(1);
    expect(await call('DELETE', `${url}/${created.body.id}?variantId=${variant}`)).toMatchObject({
      status: 200,
      body: {},
    });
    expect((await call('GET', `${rules}/${rule.id}`)).body.distributions).toEqual([]);
    await call('DELETE', `${rules}/${rule.id}`);
  });

  it('serves the legacy rule routes on the default namespace', async () => {
    await call('POST', '/api/v1/flags', { key: 'lf', name: 'LF' });
    await call('POST', '/api/v1/segments', { key: 'ls', name: 'LS' });
    const v = (await call('POST', '/api/v1/flags/lf/variants', { key: 'a' })).body;
    const rule = await call('POST', '/api/v1/flags/lf/rules', { segmentKey: 'ls', rank: 1 });
    expect(rule.body.namespaceKey).toBe('default');
    const second = await call('POST', '/api/v1/flags/lf/rules', { segmentKey: 'ls', rank: 2 });
    expect(
      (await call('PUT', '/api/v1/flags/lf/rules/order', { ruleIds: [second.body.id, rule.body.id] })).status,
    ).toBe(200);
    const distribution = await call('POST', `/api/v1/flags/lf/rules/${rule.body.id}/distributions`, {
      variantId: v.id,
      rollout: 10,
    });
    expect(distribution.status).toBe(200);
    expect((await call('GET', '/api/v1/flags/lf/rules')).body.rules.map((r: { id: string }) => r.id)).toEqual([
      second.body.id,
      rule.body.id,
    ]);
    expect((await call('GET', `/api/v1/flags/lf/rules/${rule.body.id}`)).body.distributions).toHaveLength(1);
    expect((await call('PUT', `/api/v1/flags/lf/rules/${rule.body.id}`, { segmentKey: 'ls' })).status).toBe(200);
    expect(
      (
        await call(
          'DELETE',
          `/api/v1/flags/lf/rules/${rule.body.id}/distributions/${distribution.body.id}?variant_id=${v.id}`,
        )
      ).status,
    ).toBe(200);
    expect((await call('DELETE', `/api/v1/flags/lf/rules/${rule.body.id}`)).status).toBe(200);
    expect((await call('GET', '/api/v1/flags/lf/rules')).body.rules).toEqual([
      { ...second.body, rank: 1, updatedAt: expect.any(String) },
    ]);
  });
});
