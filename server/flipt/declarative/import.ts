import type * as v from 'valibot';
import {
  CreateConstraintRequest,
  CreateDistributionRequest,
  CreateFlagRequest,
  CreateNamespaceRequest,
  CreateRolloutRequest,
  CreateRuleRequest,
  CreateSegmentRequest,
  CreateVariantRequest,
  UpdateFlagRequest,
  parseRequest,
} from '../../../domain/flipt/schemas.js';
import { DEFAULT_NAMESPACE } from '../../../domain/flipt/types.js';
import type { Database } from '../../db/index.js';
import type { ChangeFeed } from '../../changes.js';
import { FliptError } from '../errors.js';
import type { Executor } from '../store/executor.js';
import { createNamespace, findNamespace } from '../store/namespaces.js';
import { createFlag, createVariant, findFlag, updateFlag } from '../store/flags.js';
import { createConstraint, createSegment, findSegment } from '../store/segments.js';
import { createDistribution, createRule } from '../store/rules.js';
import { createRollout } from '../store/rollouts.js';
import type { FeaturesDocument, FlagDocument, SegmentDocument } from './format.js';

export interface ImportOptions {
  /** Leave flags and segments whose key already exists as they are (and skip their contents). */
  skipExisting?: boolean;
  /** Remove every flag, segment and namespace but `default` first. */
  drop?: boolean;
}

export interface ImportSummary {
  namespaces: string[];
  flags: number;
  segments: number;
  skipped: number;
}

/** An import that was refused, worded as one line naming the entity and the problem. */
export class ImportError extends Error {
  override name = 'ImportError';
}

/**
 * Imports documents in ONE transaction, through the same validation and create functions as the
 * API (so every §4 rule and message applies); any problem rolls the whole import back. Each
 * namespace touched is published on the change feed after the commit.
 */
export async function importFeatures(
  database: Database,
  documents: FeaturesDocument[],
  options: ImportOptions = {},
  changes?: ChangeFeed,
): Promise<ImportSummary> {
  const summary: ImportSummary = { namespaces: [], flags: 0, segments: 0, skipped: 0 };
  const dropped = await database.transaction(async (trx) => {
    const executor: Executor = { db: trx, dialect: database.dialect };
    const droppedNamespaces = options.drop ? await dropEverything(executor) : [];
    for (const document of documents) await importDocument(executor, document, options, summary);
    return droppedNamespaces;
  });
  for (const namespace of new Set([...dropped, ...summary.namespaces])) changes?.publish(namespace);
  return summary;
}

async function dropEverything(executor: Executor): Promise<string[]> {
  const { db } = executor;
  const namespaces = (await db.selectFrom('namespaces').select('key').execute()).map((row) => row.key);
  // Flags take their variants, rules and rollouts along; segments their constraints.
  await db.deleteFrom('flags').execute();
  await db.deleteFrom('segments').execute();
  await db.deleteFrom('namespaces').where('key', '!=', DEFAULT_NAMESPACE).execute();
  return namespaces;
}

/** Validates a request body as the API would, naming the place on failure. */
function validated<S extends v.GenericSchema>(schema: S, body: Record<string, unknown>, place: string): v.InferOutput<S> {
  const result = parseRequest(schema, body);
  if (!result.success) throw new ImportError(`${place}: ${result.message}`);
  return result.output;
}

/** Runs one create step; Flipt's errors (not found, not unique) are reworded to name the place. */
async function step<T>(place: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FliptError) throw new ImportError(`${place}: ${error.message}`);
    throw error;
  }
}

async function importDocument(executor: Executor, document: FeaturesDocument, options: ImportOptions, summary: ImportSummary) {
  const namespaceKey = document.namespace.key;
  const at = `namespace "${namespaceKey}"`;
  if (!(await findNamespace(executor, namespaceKey))) {
    const { name = namespaceKey, description = '' } = document.namespace;
    const input = validated(CreateNamespaceRequest, { key: namespaceKey, name: name || namespaceKey, description }, at);
    await step(at, () => createNamespace(executor, input));
  }
  if (!summary.namespaces.includes(namespaceKey)) summary.namespaces.push(namespaceKey);

  const imported: FlagDocument[] = [];
  for (const flag of document.flags) {
    if (options.skipExisting && (await findFlag(executor, namespaceKey, flag.key))) {
      summary.skipped++;
      continue;
    }
    imported.push(flag);
  }
  const variantIds = new Map<string, Map<string, string>>();
  for (const flag of imported) variantIds.set(flag.key, await importFlag(executor, namespaceKey, flag, at));

  for (const segment of document.segments) {
    if (options.skipExisting && (await findSegment(executor, namespaceKey, segment.key))) {
      summary.skipped++;
      continue;
    }
    await importSegment(executor, namespaceKey, segment, at);
    summary.segments++;
  }

  for (const flag of imported) {
    await importRulesAndRollouts(executor, namespaceKey, flag, variantIds.get(flag.key)!, `${at}, flag "${flag.key}"`);
    summary.flags++;
  }
}

/** Creates the flag and its variants, then marks the default variant; returns variant ids by key. */
async function importFlag(executor: Executor, namespaceKey: string, flag: FlagDocument, parent: string): Promise<Map<string, string>> {
  const at = `${parent}, flag "${flag.key}"`;
  const { key, name, description, enabled, type, metadata } = flag;
  const input = validated(CreateFlagRequest, { namespaceKey, key, name, description, enabled, type, metadata }, at);
  await step(at, () => createFlag(executor, input));

  const ids = new Map<string, string>();
  let defaultVariantId = '';
  for (const variant of flag.variants) {
    const place = `${at}, variant "${variant.key}"`;
    const body = { namespaceKey, flagKey: key, key: variant.key, name: variant.name, description: variant.description, attachment: variant.attachment };
    const created = await step(place, () => createVariant(executor, validated(CreateVariantRequest, body, place)));
    ids.set(variant.key, created.id);
    // Several variants marked default: the last one wins, as in Flipt.
    if (variant.default) defaultVariantId = created.id;
  }
  if (defaultVariantId) {
    const update = validated(UpdateFlagRequest, { namespaceKey, key, name, description, enabled, defaultVariantId }, at);
    await step(at, () => updateFlag(executor, update));
  }
  return ids;
}

async function importSegment(executor: Executor, namespaceKey: string, segment: SegmentDocument, parent: string): Promise<void> {
  const at = `${parent}, segment "${segment.key}"`;
  const { key, name, description, matchType } = segment;
  const input = validated(CreateSegmentRequest, { namespaceKey, key, name, description, matchType }, at);
  await step(at, () => createSegment(executor, input));
  for (const [index, constraint] of segment.constraints.entries()) {
    const place = `${at}, constraints[${index}] (property "${constraint.property}")`;
    const body = { namespaceKey, segmentKey: key, ...constraint };
    await step(place, () => createConstraint(executor, validated(CreateConstraintRequest, body, place)));
  }
}

async function importRulesAndRollouts(
  executor: Executor,
  namespaceKey: string,
  flag: FlagDocument,
  variantIds: Map<string, string>,
  at: string,
): Promise<void> {
  for (const [index, rule] of flag.rules.entries()) {
    const place = `${at}, rules[${index}]`;
    const body = { namespaceKey, flagKey: flag.key, segmentKeys: rule.segmentKeys, segmentOperator: rule.segmentOperator, rank: rule.rank };
    const created = await step(place, () => createRule(executor, validated(CreateRuleRequest, body, place)));
    for (const [d, distribution] of rule.distributions.entries()) {
      const where = `${place}.distributions[${d}]`;
      const variantId = variantIds.get(distribution.variant);
      if (!variantId) throw new ImportError(`${where}: unknown variant "${distribution.variant}"`);
      const input = validated(
        CreateDistributionRequest,
        { namespaceKey, flagKey: flag.key, ruleId: created.id, variantId, rollout: distribution.rollout },
        where,
      );
      await step(where, () => createDistribution(executor, input));
    }
  }
  for (const [index, rollout] of flag.rollouts.entries()) {
    const place = `${at}, rollouts[${index}]`;
    const body = { namespaceKey, flagKey: flag.key, rank: index + 1, ...rollout };
    await step(place, () => createRollout(executor, validated(CreateRolloutRequest, body, place)));
  }
}
