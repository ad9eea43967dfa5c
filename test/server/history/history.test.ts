import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { asToken, startAuthApp, type AuthTestApp } from '../auth/helpers.js';

const BOOTSTRAP = 'history-bootstrap-token';

describe.each(dialects)('change history on %s', (dialect) => {
  let t: AuthTestApp;
  const call = async (method: string, url: string, payload?: unknown) => {
    const response = await asToken(t.app, BOOTSTRAP, {
      method: method as 'GET',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() };
  };
  const history = async (query = '') => (await call('GET', `/api/v1/namespaces/h/history${query}`)).body;
  const evaluate = async (entityId: string, context: Record<string, string>) =>
    (await call('POST', '/evaluate/v1/variant', { namespaceKey: 'h', flagKey: 'colour', entityId, context })).body;

  beforeAll(async () => {
    t = await startAuthApp(dialect, {
      required: true,
      methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
    });
    expect((await call('POST', '/api/v1/namespaces', { key: 'h', name: 'H' })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('records every write with its actor, the whole entity before and after, newest first', async () => {
    const flag = { key: 'colour', name: 'Colour', type: 'VARIANT_FLAG_TYPE', enabled: true };
    expect((await call('POST', '/api/v1/namespaces/h/flags', flag)).status).toBe(200);
    const blue = (await call('POST', '/api/v1/namespaces/h/flags/colour/variants', { key: 'blue' })).body;
    await call('POST', '/api/v1/namespaces/h/flags/colour/variants', { key: 'red' });
    await call('POST', '/api/v1/namespaces/h/segments', { key: 'eu', name: 'EU', matchType: 'ALL_MATCH_TYPE' });
    await call('POST', '/api/v1/namespaces/h/segments/eu/constraints', {
      type: 'STRING_COMPARISON_TYPE',
      property: 'region',
      operator: 'eq',
      value: 'eu',
    });
    const rule = (await call('POST', '/api/v1/namespaces/h/flags/colour/rules', { segmentKey: 'eu', rank: 1 })).body;
    await call('POST', `/api/v1/namespaces/h/flags/colour/rules/${rule.id}/distributions`, {
      variantId: blue.id,
      rollout: 100,
    });
    const page = await history();
    expect(page.entries.map((entry: { noun: string; action: string }) => `${entry.noun}:${entry.action}`)).toEqual([
      'distribution:created',
      'rule:created',
      'constraint:created',
      'segment:created',
      'variant:created',
      'variant:created',
      'flag:created',
      'namespace:created',
    ]);
    const [distribution] = page.entries;
    expect(distribution).toMatchObject({
      namespaceKey: 'h',
      entityType: 'flag',
      entityKey: 'colour',
      actor: 'token initial_bootstrap_token',
      actorMetadata: { authentication: 'token' },
      payload: { ruleId: rule.id, variantId: blue.id, rollout: 100 },
    });
    expect(distribution.before.rules[0].distributions).toEqual([]);
    expect(distribution.after.rules[0].distributions).toMatchObject([{ variantId: blue.id, rollout: 100 }]);
    expect(distribution.after.flag.variants.map((v: { key: string }) => v.key)).toEqual(['blue', 'red']);
  });

  it('pages by keyset and filters by entity, actor and date', async () => {
    const first = await history('?limit=3');
    expect(first.entries).toHaveLength(3);
    const second = await history(`?limit=3&pageToken=${first.nextPageToken}`);
    expect(Number(second.entries[0].id)).toBeLessThan(Number(first.entries[2].id));
    const segment = await history('?entityType=segment&entityKey=eu');
    expect(segment.entries.map((entry: { noun: string }) => entry.noun)).toEqual(['constraint', 'segment']);
    expect((await history('?actor=nobody')).entries).toEqual([]);
    expect((await history('?since=2000-01-01T00:00:00Z&limit=100')).entries.length).toBeGreaterThan(5);
    expect((await history('?until=2000-01-01T00:00:00Z')).entries).toEqual([]);
    const bad = await call('GET', '/api/v1/namespaces/h/history?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('limit');
    expect((await call('GET', '/api/v1/namespaces/h/history?entityType=rule')).body.message).toContain('entityType');
  });

  it('records a reorder with its request, and deletes with theirs', async () => {
    const second = (await call('POST', '/api/v1/namespaces/h/flags/colour/rules', { segmentKey: 'eu', rank: 2 })).body;
    const rules = (await call('GET', '/api/v1/namespaces/h/flags/colour/rules')).body.rules;
    const order = [second.id, rules[0].id];
    expect((await call('PUT', '/api/v1/namespaces/h/flags/colour/rules/order', { ruleIds: order })).status).toBe(200);
    const [reorder] = (await history('?limit=1')).entries;
    expect(reorder).toMatchObject({ noun: 'rule', action: 'updated', payload: { ruleIds: order } });
    expect(reorder.after.rules.map((rule: { id: string }) => rule.id)).toEqual(order);
    await call('DELETE', `/api/v1/namespaces/h/flags/colour/rules/${second.id}`);
    const [deleted] = (await history('?limit=1')).entries;
    expect(deleted).toMatchObject({ noun: 'rule', action: 'deleted', payload: { id: second.id, flagKey: 'colour' } });
    // Deleting what is not there changes nothing and records nothing.
    await call('DELETE', `/api/v1/namespaces/h/flags/colour/rules/${second.id}`);
    expect((await history('?limit=1')).entries[0].id).toBe(deleted.id);
  });

  it('reverts a change as a new entry, restoring the rules exactly', async () => {
    const context = { region: 'eu' };
    expect(await evaluate('u1', context)).toMatchObject({ match: true, variantKey: 'blue' });
    const rule = (await call('GET', '/api/v1/namespaces/h/flags/colour/rules')).body.rules[0];
    const red = (await call('GET', '/api/v1/namespaces/h/flags/colour')).body.variants[1];
    await call('PUT', `/api/v1/namespaces/h/flags/colour/rules/${rule.id}/distributions/${rule.distributions[0].id}`, {
      variantId: red.id,
      rollout: 100,
    });
    const [change] = (await history('?limit=1')).entries;
    await call('PUT', '/api/v1/namespaces/h/flags/colour', { name: 'Colour', enabled: false });
    expect((await evaluate('u1', context)).match).toBe(false);

    const preview = (await call('GET', `/api/v1/namespaces/h/history/${change.id}/revert`)).body;
    expect(preview.refusal).toBeUndefined();
    expect(preview.target).toEqual(change.before);
    const reverted = await call('POST', `/api/v1/namespaces/h/history/${change.id}/revert`);
    expect(reverted.status).toBe(200);
    expect(reverted.body).toMatchObject({ noun: 'flag', action: 'updated', payload: { revertOf: change.id } });
    expect(await evaluate('u1', context)).toMatchObject({ match: true, variantKey: 'blue' });
    const rules = (await call('GET', '/api/v1/namespaces/h/flags/colour/rules')).body.rules;
    expect(rules).toEqual(change.before.rules);
  });

  it('refuses a revert that needs a deleted segment, saying why', async () => {
    await call('POST', '/api/v1/namespaces/h/segments', { key: 'temp', name: 'Temp', matchType: 'ALL_MATCH_TYPE' });
    const rule = (await call('POST', '/api/v1/namespaces/h/flags/colour/rules', { segmentKey: 'temp', rank: 2 })).body;
    await call('DELETE', `/api/v1/namespaces/h/flags/colour/rules/${rule.id}`);
    const [deletion] = (await history('?limit=1')).entries;
    await call('DELETE', '/api/v1/namespaces/h/segments/temp');
    const preview = (await call('GET', `/api/v1/namespaces/h/history/${deletion.id}/revert`)).body;
    expect(preview.refusal).toContain('segment "temp"');
    const refused = await call('POST', `/api/v1/namespaces/h/history/${deletion.id}/revert`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('cannot revert: segment "temp"');
    expect((await call('POST', '/api/v1/namespaces/h/history/999999/revert')).status).toBe(404);
  });

  it('reverts a deletion by recreating the flag, ids and all', async () => {
    const before = (await call('GET', '/api/v1/namespaces/h/flags/colour')).body;
    await call('DELETE', '/api/v1/namespaces/h/flags/colour');
    const [deletion] = (await history('?limit=1')).entries;
    expect(deletion).toMatchObject({ noun: 'flag', action: 'deleted', after: null });
    expect((await call('POST', `/api/v1/namespaces/h/history/${deletion.id}/revert`)).body.action).toBe('created');
    expect((await call('GET', '/api/v1/namespaces/h/flags/colour')).body).toEqual(before);
  });
});
