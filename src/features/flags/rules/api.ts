/** A flag's rules (the Rules tab of a variant flag), in the shape of flags/api.ts. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Distribution, Rule, RuleList, SegmentOperator } from '../../../../domain/flipt/types';
import { request } from '../../../api/client';
import { useOrderMutation, useSettledMutation } from '../../../api/mutation';
import { segmentFields } from '../../../lib/segments';
import { useCurrentRef } from '../../../api/currentRef';
import { flagKeys, flagPath } from '../api';

const enc = encodeURIComponent;
const rulesPath = (namespaceKey: string, flagKey: string) => `${flagPath(namespaceKey, flagKey)}/rules`;

export interface NewRule {
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
  distributions: { variantId: string; rollout: number }[];
}

/** Creates the rule, then POSTs each of its distributions. */
export async function createRule(
  namespaceKey: string,
  flagKey: string,
  { rule, rank }: { rule: NewRule; rank: number },
) {
  const path = rulesPath(namespaceKey, flagKey);
  const created = await request<Rule>('POST', path, { ...segmentFields(rule.segmentKeys, rule.segmentOperator), rank });
  for (const distribution of rule.distributions) {
    await request<Distribution>('POST', `${path}/${enc(created.id)}/distributions`, distribution);
  }
  return created;
}

/** PUTs each of a rule's distributions. */
export async function updateDistributions(
  namespaceKey: string,
  flagKey: string,
  { ruleId, distributions }: { ruleId: string; distributions: Pick<Distribution, 'id' | 'variantId' | 'rollout'>[] },
) {
  const path = `${rulesPath(namespaceKey, flagKey)}/${enc(ruleId)}/distributions`;
  for (const { id, variantId, rollout } of distributions) {
    await request<Distribution>('PUT', `${path}/${enc(id)}`, { variantId, rollout });
  }
}

export const deleteRule = (namespaceKey: string, flagKey: string, ruleId: string) =>
  request<void>('DELETE', `${rulesPath(namespaceKey, flagKey)}/${enc(ruleId)}`);

export const rulesQuery = (ref: string, namespaceKey: string, flagKey: string) =>
  queryOptions({
    queryKey: flagKeys.rules(ref, namespaceKey, flagKey),
    queryFn: () => request<RuleList>('GET', rulesPath(namespaceKey, flagKey)),
  });

export const useRules = (namespaceKey: string, flagKey: string) =>
  useQuery(rulesQuery(useCurrentRef(), namespaceKey, flagKey));

export const useCreateRule = (namespaceKey: string, flagKey: string) =>
  useSettledMutation(flagKeys.rules(useCurrentRef(), namespaceKey, flagKey), (input: { rule: NewRule; rank: number }) =>
    createRule(namespaceKey, flagKey, input),
  );

export const useUpdateDistributions = (namespaceKey: string, flagKey: string) =>
  useSettledMutation(
    flagKeys.rules(useCurrentRef(), namespaceKey, flagKey),
    (input: Parameters<typeof updateDistributions>[2]) => updateDistributions(namespaceKey, flagKey, input),
  );

export const useDeleteRule = (namespaceKey: string, flagKey: string) =>
  useSettledMutation(flagKeys.rules(useCurrentRef(), namespaceKey, flagKey), (ruleId: string) =>
    deleteRule(namespaceKey, flagKey, ruleId),
  );

export const useOrderRules = (namespaceKey: string, flagKey: string) =>
  useOrderMutation<Rule>(
    flagKeys.rules(useCurrentRef(), namespaceKey, flagKey),
    `${rulesPath(namespaceKey, flagKey)}/order`,
    'ruleIds',
  );
