import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Distribution, Rule, RuleList, SegmentOperator } from '../../../domain/flipt/types';
import { request } from '../../api/client';
import { useOrderMutation } from '../../lib/ordering';
import { segmentFields } from '../../lib/segments';
import { flagKeys } from '../flags';
import { flagPath } from '../flags';

const enc = encodeURIComponent;
const rulesPath = (namespaceKey: string, flagKey: string) => `${flagPath(namespaceKey, flagKey)}/rules`;

export function useRules(namespaceKey: string, flagKey: string) {
  return useQuery({
    queryKey: flagKeys.rules(namespaceKey, flagKey),
    queryFn: () => request<RuleList>('GET', rulesPath(namespaceKey, flagKey)),
  });
}

export interface NewRule {
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
  distributions: { variantId: string; rollout: number }[];
}

export function useRuleMutations(namespaceKey: string, flagKey: string) {
  const client = useQueryClient();
  const key = flagKeys.rules(namespaceKey, flagKey);
  const path = rulesPath(namespaceKey, flagKey);
  const invalidate = () => client.invalidateQueries({ queryKey: key });
  return {
    /** Creates the rule, then POSTs each of its distributions. */
    create: useMutation({
      mutationFn: async ({ rule, rank }: { rule: NewRule; rank: number }) => {
        const created = await request<Rule>('POST', path, {
          ...segmentFields(rule.segmentKeys, rule.segmentOperator),
          rank,
        });
        for (const distribution of rule.distributions) {
          await request<Distribution>('POST', `${path}/${enc(created.id)}/distributions`, distribution);
        }
        return created;
      },
      onSettled: invalidate,
    }),
    updateDistributions: useMutation({
      mutationFn: async ({
        ruleId,
        distributions,
      }: {
        ruleId: string;
        distributions: Pick<Distribution, 'id' | 'variantId' | 'rollout'>[];
      }) => {
        for (const { id, variantId, rollout } of distributions) {
          await request<Distribution>('PUT', `${path}/${enc(ruleId)}/distributions/${enc(id)}`, { variantId, rollout });
        }
      },
      onSettled: invalidate,
    }),
    remove: useMutation({
      mutationFn: (ruleId: string) => request<void>('DELETE', `${path}/${enc(ruleId)}`),
      onSettled: invalidate,
    }),
    order: useOrderMutation<Rule>(key, `${path}/order`, 'ruleIds'),
  };
}
