import { readFileSync } from 'node:fs';
import type { FliptReader } from '../../../server/flipt/store/index.js';
import type { FeaturesDocument } from '../../../server/flipt/declarative/format.js';

export const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/declarative/${name}`, import.meta.url), 'utf8');
export const fixturePath = (name: string) => new URL(`../../fixtures/declarative/${name}`, import.meta.url).pathname;

/**
 * Everything the API shows for every namespace, minus what a new database assigns afresh (ids and
 * timestamps); a distribution names its variant by `flagKey/key` instead of by id.
 */
export async function snapshot(store: FliptReader): Promise<unknown> {
  const { namespaces } = await store.listNamespaces();
  const result: Record<string, unknown> = {};
  for (const namespace of namespaces) {
    const { flags } = await store.listFlags(namespace.key);
    const { segments } = await store.listSegments(namespace.key);
    const variantNames = new Map(flags.flatMap((flag) => flag.variants.map((v) => [v.id, `${flag.key}/${v.key}`])));
    const rules: Record<string, unknown> = {};
    const rollouts: Record<string, unknown> = {};
    for (const flag of flags) {
      rules[flag.key] = (await store.listRules(namespace.key, flag.key)).rules;
      rollouts[flag.key] = (await store.listRollouts(namespace.key, flag.key)).rules;
    }
    result[namespace.key] = strip({ namespace, flags, segments, rules, rollouts }, variantNames);
  }
  return result;
}

const FRESH = new Set(['id', 'createdAt', 'updatedAt', 'ruleId']);

function strip(value: unknown, variantNames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, variantNames));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !FRESH.has(key))
      .map(([key, item]) => [key, key === 'variantId' ? variantNames.get(item as string) : strip(item, variantNames)]),
  );
}

/** The `default` namespace as every new database holds it, and as an export therefore writes it. */
export const STORED_DEFAULT = { key: 'default', name: 'Default', description: 'Default namespace' };

/** The documents as an export of them writes them: `default` (which an import leaves as it is) as the database holds it. */
export const withStoredDefault = (documents: FeaturesDocument[]): FeaturesDocument[] =>
  documents.map((document) =>
    document.namespace.key === 'default' ? { ...document, namespace: STORED_DEFAULT } : document,
  );
