import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { client, error, TIMESTAMP, UUID, type Call } from './client.js';

describe.each(dialects)('Flipt rollouts on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  const rollouts = '/api/v1/namespaces/ns/flags/b/rollouts';
  beforeAll(async () => {
    t = await startTestApp(dialect);
    call = client(t.app);
    await call('POST', '/api/v1/namespaces', { key: 'ns', name: 'NS' });
    await call('POST', '/api/v1/namespaces/ns/flags', { key: 'b', name: 'B', type: 'BOOLEAN_FLAG_TYPE' });
    for (const key of ['s1', 's2']) await call('POST', '/api/v1/namespaces/ns/segments', { key, name: key });
  });
  afterAll(() => t.close());

  const ranks = async () =>
    (await call('GET', rollouts)).body.rules.map((r: { id: string; rank: number }) => [r.id, r.rank]);

  it("creates segment and threshold rollouts in Flipt's shape", async () => {
    const segment = await call('POST', rollouts, {
      rank: 1,
      description: 'd',
      segment: { segmentKey: 's1', value: true, segmentOperator: 'AND_SEGMENT_OPERATOR' },
    });
    expect(segment.body).toEqual({
      id: expect.stringMatching(UUID),
      namespaceKey: 'ns',
      flagKey: 'b',
      type: 'SEGMENT_ROLLOUT_TYPE',
      rank: 1,
      description: 'd',
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: segment.body.createdAt,
      segment: { segmentKey: 's1', value: true, segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' },
    });
    const threshold = await call('POST', rollouts, { rank: 2, threshold: { percentage: '12.5', value: 'true' } });
    expect(threshold.body).toMatchObject({
      type: 'THRESHOLD_ROLLOUT_TYPE',
      rank: 2,
      description: '',
      threshold: { percentage: 12.5, value: true },
    });
    expect(threshold.body).not.toHaveProperty('segment');
    const many = await call('POST', rollouts, {
      rank: 3,
      segment: { segment_keys: ['s2', 's1'], segment_operator: 'AND_SEGMENT_OPERATOR' },
    });
    expect(many.body.segment).toEqual({
      segmentKey: '',
      value: false,
      segmentKeys: ['s1', 's2'],
      segmentOperator: 'AND_SEGMENT_OPERATOR',
    });

    const list = await call('GET', rollouts);
    expect(list.body).toEqual({ rules: [segment.body, threshold.body, many.body], nextPageToken: '', totalCount: 3 });
    expect((await call('GET', `${rollouts}/${threshold.body.id}`)).body).toEqual(threshold.body);

    // PUT replaces the description and the rule body, keeps rank and type.
    const updated = await call('PUT', `${rollouts}/${segment.body.id}`, {
      rank: 7,
      segment: { segmentKeys: ['s1', 's2'], value: false },
    });
    expect(updated.body).toMatchObject({
      rank: 1,
      description: '',
      segment: { segmentKey: '', segmentKeys: ['s1', 's2'], value: false, segmentOperator: 'OR_SEGMENT_OPERATOR' },
    });
    expect(await call('PUT', `${rollouts}/${segment.body.id}`, { threshold: { percentage: 5 } })).toMatchObject({
      status: 400,
      body: error(3, 'cannot change type of rollout: have "SEGMENT_ROLLOUT_TYPE" attempted "THRESHOLD_ROLLOUT_TYPE"'),
    });
    const t2 = await call('PUT', `${rollouts}/${threshold.body.id}`, { threshold: { percentage: 99 } });
    expect(t2.body.threshold).toEqual({ percentage: 99, value: false });

    for (const id of [segment.body.id, threshold.body.id, many.body.id]) await call('DELETE', `${rollouts}/${id}`);
  });

  it("validates rollouts with Flipt's messages", async () => {
    await call('POST', rollouts, { rank: 1, threshold: { percentage: 1 } });
    const cases: [unknown, number, unknown][] = [
      [{ rank: 2 }, 400, error(3, 'rollout rule is missing')],
      [{ rank: 1, threshold: { percentage: 1 } }, 400, error(3, 'rank number: 1 already exists')],
      [
        { rank: 2, threshold: { percentage: 101 } },
        400,
        error(3, 'invalid field threshold.percentage: must be within range [0, 100]'),
      ],
      [
        { rank: 2, threshold: { percentage: 'lots' } },
        400,
        error(3, 'invalid field threshold.percentage: must be a number'),
      ],
      [
        { rank: 2, segment: { value: true } },
        400,
        error(3, 'invalid field segmentKey or segmentKeys: must not be empty'),
      ],
      [{ rank: 2, segment: 'x' }, 400, error(3, 'invalid field segment: must be an object')],
      [
        { rank: 2, segment: { segmentKey: 's1' }, threshold: { percentage: 1 } },
        400,
        error(3, 'invalid field rule: only one of segment or threshold can be present'),
      ],
      [{ rank: 2, segment: { segmentKey: 'nope' } }, 404, error(5, 'segment "ns/nope" not found')],
    ];
    for (const [body, status, expected] of cases)
      expect(await call('POST', rollouts, body)).toMatchObject({ status, body: expected });
    expect(
      await call('POST', '/api/v1/namespaces/ns/flags/none/rollouts', { rank: 1, threshold: { percentage: 1 } }),
    ).toMatchObject({
      status: 404,
      body: error(5, 'flag "ns/none" not found'),
    });
    expect(await call('GET', `${rollouts}/none`)).toMatchObject({
      status: 404,
      body: error(5, 'rollout "ns/none" not found'),
    });
    expect(await call('PUT', `${rollouts}/none`, { threshold: { percentage: 1 } })).toMatchObject({
      status: 404,
      body: error(5, 'rollout "ns/none" not found'),
    });
    expect((await call('GET', rollouts)).body.totalCount).toBe(1);
    await call('DELETE', `${rollouts}/${(await call('GET', rollouts)).body.rules[0].id}`);
  });

  it('orders rollouts, renumbers after a delete and pages them', async () => {
    const ids: string[] = [];
    for (const rank of [1, 2, 3])
      ids.push((await call('POST', rollouts, { rank, threshold: { percentage: rank } })).body.id);
    expect(await call('PUT', `${rollouts}/order`, { rolloutIds: [ids[2], ids[0], ids[1]] })).toMatchObject({
      status: 200,
      body: {},
    });
    expect(await ranks()).toEqual([
      [ids[2], 1],
      [ids[0], 2],
      [ids[1], 3],
    ]);
    expect(await call('PUT', `${rollouts}/order`, { rolloutIds: [] })).toMatchObject({
      status: 400,
      body: error(3, 'invalid field rolloutIds: must contain atleast 2 elements'),
    });
    const page = await call('GET', `${rollouts}?limit=2`);
    expect(page.body.rules.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[0]]);
    const next = await call('GET', `${rollouts}?limit=2&pageToken=${encodeURIComponent(page.body.nextPageToken)}`);
    expect(next.body.rules.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    expect(await call('DELETE', `${rollouts}/${ids[2]}`)).toMatchObject({ status: 200, body: {} });
    expect(await ranks()).toEqual([
      [ids[0], 1],
      [ids[1], 2],
    ]);
  });

  it('has no legacy routes without the namespace', async () => {
    expect(await call('GET', '/api/v1/flags/b/rollouts')).toMatchObject({ status: 404, body: error(5, 'Not Found') });
  });
});
