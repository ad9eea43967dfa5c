import type { FastifyInstance } from 'fastify';

/** A Flipt API client over `app.inject()`, for setting up flags and segments in evaluation tests. */
export class Api {
  constructor(private readonly app: FastifyInstance) {}

  async call<T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
    const response = await this.app.inject({
      method,
      url,
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.statusCode,
      body: response.body ? JSON.parse(response.body) : undefined,
      headers: response.headers,
    };
  }

  async ok<T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<T> {
    const response = await this.call<T>(method, url, body);
    if (response.status !== 200)
      throw new Error(`${method} ${url} → ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  flag(ns: string, key: string, type: 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE' = 'VARIANT_FLAG_TYPE', enabled = true) {
    return this.ok('POST', `/api/v1/namespaces/${ns}/flags`, { key, name: key, type, enabled });
  }

  variant(ns: string, flagKey: string, key: string, attachment = ''): Promise<{ id: string }> {
    return this.ok('POST', `/api/v1/namespaces/${ns}/flags/${flagKey}/variants`, { key, attachment });
  }

  async segment(
    ns: string,
    key: string,
    constraints: [type: string, property: string, operator: string, value?: string][],
    matchType = 'ALL_MATCH_TYPE',
  ) {
    await this.ok('POST', `/api/v1/namespaces/${ns}/segments`, { key, name: key, matchType });
    for (const [type, property, operator, value] of constraints) {
      await this.ok('POST', `/api/v1/namespaces/${ns}/segments/${key}/constraints`, {
        type,
        property,
        operator,
        value: value ?? '',
      });
    }
  }

  async rule(
    ns: string,
    flagKey: string,
    segmentKeys: string[],
    distributions: [variantId: string, rollout: number][],
    rank: number,
    segmentOperator = 'OR_SEGMENT_OPERATOR',
  ) {
    const rule = await this.ok('POST', `/api/v1/namespaces/${ns}/flags/${flagKey}/rules`, {
      ...(segmentKeys.length === 1 ? { segmentKey: segmentKeys[0] } : { segmentKeys }),
      segmentOperator,
      rank,
    });
    for (const [variantId, rollout] of distributions) {
      await this.ok('POST', `/api/v1/namespaces/${ns}/flags/${flagKey}/rules/${rule.id}/distributions`, {
        variantId,
        rollout,
      });
    }
    return rule;
  }

  threshold(ns: string, flagKey: string, rank: number, percentage: number, value: boolean) {
    return this.ok('POST', `/api/v1/namespaces/${ns}/flags/${flagKey}/rollouts`, {
      rank,
      threshold: { percentage, value },
    });
  }

  segmentRollout(
    ns: string,
    flagKey: string,
    rank: number,
    segmentKeys: string[],
    value: boolean,
    segmentOperator = 'OR_SEGMENT_OPERATOR',
  ) {
    return this.ok('POST', `/api/v1/namespaces/${ns}/flags/${flagKey}/rollouts`, {
      rank,
      segment: {
        ...(segmentKeys.length === 1 ? { segmentKey: segmentKeys[0] } : { segmentKeys }),
        value,
        segmentOperator,
      },
    });
  }
}
