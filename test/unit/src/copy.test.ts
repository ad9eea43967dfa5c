import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyFlag } from '../../../src/features/flags/api';
import { copySegment, segmentKeys } from '../../../src/features/segments/api';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => [init?.method, String(url), init?.body && JSON.parse(String(init.body))]);

describe('copy flag', () => {
  const source = {
    key: 'f',
    name: 'F',
    description: 'd',
    type: 'VARIANT_FLAG_TYPE',
    enabled: true,
    metadata: { team: 'growth', tier: 2 },
    variants: [
      { id: '1', key: 'a', name: 'A', description: '', attachment: '{"x":1}' },
      { id: '2', key: 'b', name: 'B', description: '', attachment: '' },
    ],
  };

  it('gets the source, posts it (metadata too) under the new key to the target, then each variant', async () => {
    fetchMock.mockImplementation(async (_url, init) => json(200, init?.method === 'GET' ? source : {}));
    await copyFlag({ namespaceKey: 'default', flagKey: 'f' }, { namespaceKey: 'prod', flagKey: 'g' });
    expect(calls()).toEqual([
      ['GET', '/api/v1/namespaces/default/flags/f', undefined],
      [
        'POST',
        '/api/v1/namespaces/prod/flags',
        {
          key: 'g',
          name: 'F',
          description: 'd',
          type: 'VARIANT_FLAG_TYPE',
          enabled: true,
          metadata: { team: 'growth', tier: 2 },
        },
      ],
      [
        'POST',
        '/api/v1/namespaces/prod/flags/g/variants',
        { key: 'a', name: 'A', description: '', attachment: '{"x":1}' },
      ],
      ['POST', '/api/v1/namespaces/prod/flags/g/variants', { key: 'b', name: 'B', description: '', attachment: '' }],
    ]);
  });

  it('stops at the first failing step and returns its error', async () => {
    fetchMock
      .mockImplementationOnce(async () => json(200, source))
      .mockImplementationOnce(async () => json(200, {}))
      .mockImplementationOnce(async () =>
        json(400, { code: 3, message: 'variant "a" is not unique for flag "prod/f"', details: [] }),
      );
    await expect(copyFlag({ namespaceKey: 'default', flagKey: 'f' }, { namespaceKey: 'prod' })).rejects.toThrow(
      'variant "a" is not unique for flag "prod/f"',
    );
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});

describe('copy segment', () => {
  const source = {
    key: 's',
    name: 'S',
    description: '',
    matchType: 'ANY_MATCH_TYPE',
    constraints: [
      { id: '1', property: 'plan', type: 'STRING_COMPARISON_TYPE', operator: 'eq', value: 'pro', description: 'p' },
    ],
  };

  it('gets the source, posts it to the target, then each constraint', async () => {
    fetchMock.mockImplementation(async (_url, init) => json(200, init?.method === 'GET' ? source : {}));
    await copySegment({ namespaceKey: 'default', segmentKey: 's' }, { namespaceKey: 'prod' });
    expect(calls()).toEqual([
      ['GET', '/api/v1/namespaces/default/segments/s', undefined],
      [
        'POST',
        '/api/v1/namespaces/prod/segments',
        { key: 's', name: 'S', description: '', matchType: 'ANY_MATCH_TYPE' },
      ],
      [
        'POST',
        '/api/v1/namespaces/prod/segments/s/constraints',
        { property: 'plan', type: 'STRING_COMPARISON_TYPE', operator: 'eq', value: 'pro', description: 'p' },
      ],
    ]);
  });

  it('skips the constraints when creating the segment fails', async () => {
    fetchMock
      .mockImplementationOnce(async () => json(200, source))
      .mockImplementationOnce(async () =>
        json(400, { code: 3, message: 'segment "prod/s" is not unique', details: [] }),
      );
    await expect(copySegment({ namespaceKey: 'default', segmentKey: 's' }, { namespaceKey: 'prod' })).rejects.toThrow(
      'segment "prod/s" is not unique',
    );
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('segment query keys', () => {
  it('lead with the git ref, so a segment read at one ref is never shown at another', () => {
    expect(segmentKeys.detail('main', 'default', 's')[0]).toBe('main');
    expect(segmentKeys.list('v1', 'default')).not.toEqual(segmentKeys.list('main', 'default'));
    const namespace = segmentKeys.namespace('main', 'default');
    expect(segmentKeys.detail('main', 'default', 's').slice(0, namespace.length)).toEqual([...namespace]);
    expect(segmentKeys.list('main', 'default').slice(0, namespace.length)).toEqual([...namespace]);
  });
});
