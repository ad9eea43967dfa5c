import type { Flag, Rollout, Rule } from '../../../domain/flipt/types.js';
import type { FliptReader } from '../store/index.js';
import type { FeaturesDocument, FlagDocument, RolloutDocument, RuleDocument } from './format.js';

/** Which namespaces to export: the named ones (each must exist), or all of them, oldest first. */
export type NamespaceSelection = { keys: string[] } | 'all';

/** Reads the selected namespaces into documents, in the order `flipt export` writes them. */
export async function exportFeatures(store: FliptReader, selection: NamespaceSelection): Promise<FeaturesDocument[]> {
  const namespaces =
    selection === 'all'
      ? (await store.listNamespaces()).namespaces
      : await Promise.all(selection.keys.map((key) => store.getNamespace(key)));
  const documents: FeaturesDocument[] = [];
  for (const namespace of namespaces) {
    const { flags } = await store.listFlags(namespace.key);
    const { segments } = await store.listSegments(namespace.key);
    documents.push({
      namespace: { key: namespace.key, name: namespace.name, description: namespace.description },
      flags: await Promise.all(flags.map((flag) => exportFlag(store, flag))),
      segments: segments.map((segment) => ({
        key: segment.key,
        name: segment.name,
        description: segment.description,
        matchType: segment.matchType,
        constraints: segment.constraints.map(({ type, property, operator, value, description }) => ({
          type,
          property,
          operator,
          value,
          description,
        })),
      })),
    });
  }
  return documents;
}

async function exportFlag(store: FliptReader, flag: Flag): Promise<FlagDocument> {
  const { rules } = await store.listRules(flag.namespaceKey, flag.key);
  const { rules: rollouts } = await store.listRollouts(flag.namespaceKey, flag.key);
  const variantKeys = new Map(flag.variants.map((variant) => [variant.id, variant.key]));
  const document: FlagDocument = {
    key: flag.key,
    name: flag.name,
    type: flag.type,
    description: flag.description,
    enabled: flag.enabled,
    variants: flag.variants.map((variant) => ({
      key: variant.key,
      name: variant.name,
      description: variant.description,
      attachment: variant.attachment,
      default: variant.id === flag.defaultVariant?.id,
    })),
    rules: rules.map((rule, index) => exportRule(rule, index, variantKeys)),
    rollouts: rollouts.map(exportRollout),
  };
  if (flag.metadata && Object.keys(flag.metadata).length > 0) document.metadata = flag.metadata;
  return document;
}

const segmentKeysOf = (one: string, many: string[]) => (one ? [one] : many);

function exportRule(rule: Rule, index: number, variantKeys: Map<string, string>): RuleDocument {
  return {
    segmentKeys: segmentKeysOf(rule.segmentKey, rule.segmentKeys),
    segmentOperator: rule.segmentOperator,
    // The file keeps no ranks: a rule's place in the list is its rank.
    rank: index + 1,
    distributions: rule.distributions.map((distribution) => ({
      variant: variantKeys.get(distribution.variantId) ?? distribution.variantId,
      rollout: distribution.rollout,
    })),
  };
}

function exportRollout(rollout: Rollout): RolloutDocument {
  if (rollout.threshold) {
    return {
      description: rollout.description,
      threshold: { percentage: rollout.threshold.percentage, value: rollout.threshold.value },
    };
  }
  const segment = rollout.segment!;
  return {
    description: rollout.description,
    segment: {
      segmentKeys: segmentKeysOf(segment.segmentKey, segment.segmentKeys),
      segmentOperator: segment.segmentOperator,
      value: segment.value,
    },
  };
}
