import type { Flag, Rollout, Rule } from '../../../domain/flipt/types.js';
import type { FliptReader } from '../store/index.js';
import type { FeaturesDocument, FlagDocument, PagedDocument, RolloutDocument, RuleDocument } from './format.js';

/** Which namespaces to export: the named ones (each must exist), or all of them, oldest first. */
export type NamespaceSelection = { keys: string[] } | 'all';

/** A namespace as export reads it: its segments at once, its flags a page at a time. */
export interface ExportedDocument extends PagedDocument {
  flagPages: AsyncIterable<FlagDocument[]>;
}

export interface ExportOptions {
  /**
   * `flipt export --sort-by-key` (v1.61): namespaces (when all are exported; named ones keep the
   * order given), flags, each flag's variants and segments in ascending key order. Constraints, rules
   * and rollouts keep their order, which is meaningful.
   */
  sortByKey?: boolean;
}

/** Flags read (with their rules and rollouts) per page: bounds what an export holds at once. */
const FLAGS_PER_PAGE = 500;

/** Ascending by key, comparing code units: keys are ASCII, so this is Go's byte order (strings.Compare). */
const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Reads the selected namespaces into documents, in the order `flipt export` writes them. */
export async function exportFeatures(
  store: FliptReader,
  selection: NamespaceSelection,
  options: ExportOptions = {},
): Promise<FeaturesDocument[]> {
  const documents: FeaturesDocument[] = [];
  for (const { namespace, segments, flagPages } of await exportDocuments(store, selection, options)) {
    const flags: FlagDocument[] = [];
    for await (const page of flagPages) flags.push(...page);
    documents.push({ namespace, flags, segments });
  }
  return documents;
}

/**
 * The selected namespaces (each named one checked at once) as documents whose flags are read a page
 * at a time while they are written out.
 */
export async function exportDocuments(
  store: FliptReader,
  selection: NamespaceSelection,
  { sortByKey = false }: ExportOptions = {},
): Promise<ExportedDocument[]> {
  const namespaces =
    selection === 'all'
      ? (await store.listNamespaces()).namespaces
      : await Promise.all(selection.keys.map((key) => store.getNamespace(key)));
  if (sortByKey && selection === 'all') namespaces.sort(byKey);
  const documents: ExportedDocument[] = [];
  for (const namespace of namespaces) {
    const { segments } = await store.listSegments(namespace.key);
    if (sortByKey) segments.sort(byKey);
    documents.push({
      namespace: { key: namespace.key, name: namespace.name, description: namespace.description },
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
      flagPages: sortByKey ? sortedFlagPages(store, namespace.key) : flagPages(store, namespace.key),
    });
  }
  return documents;
}

/** A namespace's flags a page at a time (keyset pages), each page's rules and rollouts read in bulk. */
async function* flagPages(store: FliptReader, namespaceKey: string): AsyncGenerator<FlagDocument[]> {
  let pageToken = '';
  do {
    const page = await store.listFlags(namespaceKey, { limit: FLAGS_PER_PAGE, offset: 0, pageToken }, false);
    yield await exportedPage(store, namespaceKey, page.flags);
    pageToken = page.nextPageToken;
  } while (pageToken);
}

/**
 * A namespace's flags in key order, a page at a time: the keys are read and sorted first (only the
 * keys are held for the whole namespace), then each page's flags by their keys.
 */
async function* sortedFlagPages(store: FliptReader, namespaceKey: string): AsyncGenerator<FlagDocument[]> {
  const keys = (await store.flagKeys(namespaceKey)).sort();
  for (let start = 0; start < keys.length; start += FLAGS_PER_PAGE) {
    const flags = await store.flagsWithKeys(namespaceKey, keys.slice(start, start + FLAGS_PER_PAGE));
    for (const flag of flags) flag.variants.sort(byKey);
    yield await exportedPage(store, namespaceKey, flags);
  }
}

/** A page of flags as documents, its rules and rollouts read in bulk. */
async function exportedPage(store: FliptReader, namespaceKey: string, flags: Flag[]): Promise<FlagDocument[]> {
  const keys = flags.map((flag) => flag.key);
  const [rules, rollouts] = await Promise.all([
    store.rulesOfFlags(namespaceKey, keys),
    store.rolloutsOfFlags(namespaceKey, keys),
  ]);
  return flags.map((flag) => exportFlag(flag, rules.get(flag.key) ?? [], rollouts.get(flag.key) ?? []));
}

function exportFlag(flag: Flag, rules: Rule[], rollouts: Rollout[]): FlagDocument {
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
