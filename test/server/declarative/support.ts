import { readFileSync } from 'node:fs';
import type { ListInput } from '../../../domain/flipt/schemas.js';
import type { Executor } from '../../../server/flipt/store/executor.js';
import { listNamespaces } from '../../../server/flipt/store/namespaces.js';
import { listFlags } from '../../../server/flipt/store/flags.js';
import { listSegments } from '../../../server/flipt/store/segments.js';
import { listRules } from '../../../server/flipt/store/rules.js';
import { listRollouts } from '../../../server/flipt/store/rollouts.js';

export const fixture = (name: string) => readFileSync(new URL(`../../fixtures/declarative/${name}`, import.meta.url), 'utf8');
export const fixturePath = (name: string) => new URL(`../../fixtures/declarative/${name}`, import.meta.url).pathname;

const ALL: ListInput = { limit: 0, offset: 0, pageToken: '' };

/**
 * Everything the API shows for every namespace, minus what a new database assigns afresh (ids and
 * timestamps); a distribution names its variant by `flagKey/key` instead of by id.
 */
export async function snapshot(executor: Executor): Promise<unknown> {
  const { namespaces } = await listNamespaces(executor, ALL);
  const result: Record<string, unknown> = {};
  for (const namespace of namespaces) {
    const { flags } = await listFlags(executor, namespace.key, ALL);
    const { segments } = await listSegments(executor, namespace.key, ALL);
    const variantNames = new Map(flags.flatMap((flag) => flag.variants.map((v) => [v.id, `${flag.key}/${v.key}`])));
    const rules: Record<string, unknown> = {};
    const rollouts: Record<string, unknown> = {};
    for (const flag of flags) {
      rules[flag.key] = (await listRules(executor, namespace.key, flag.key, ALL)).rules;
      rollouts[flag.key] = (await listRollouts(executor, namespace.key, flag.key, ALL)).rules;
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
