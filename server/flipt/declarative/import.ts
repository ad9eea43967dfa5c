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
import { FliptError, GrpcCode } from '../errors.js';
import type { FliptStore, FliptWriter } from '../store/index.js';
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
 * Imports documents in ONE store transaction, through the same validation and write methods as the
 * API (so every §4 rule and message applies, and a read-only store refuses); any problem rolls the
 * whole import back. The store publishes each namespace touched after the commit.
 */
export async function importFeatures(
  store: FliptStore,
  documents: FeaturesDocument[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { namespaces: [], flags: 0, segments: 0, skipped: 0 };
  await store.transaction(async (writer) => {
    if (options.drop) await dropEverything(writer);
    for (const document of documents) await importDocument(writer, document, options, summary);
  });
  return summary;
}

async function dropEverything(writer: FliptWriter): Promise<void> {
  for (const namespace of (await writer.listNamespaces()).namespaces) {
    // Flags first: their rules and rollouts hold on to segments.
    for (const flag of (await writer.listFlags(namespace.key)).flags) await writer.deleteFlag(namespace.key, flag.key);
    for (const segment of (await writer.listSegments(namespace.key)).segments)
      await writer.deleteSegment(namespace.key, segment.key);
    if (namespace.key !== DEFAULT_NAMESPACE) await writer.deleteNamespace(namespace.key);
  }
}

/** Whether a get finds its entity (Flipt's 404 means no). */
async function exists(get: () => Promise<unknown>): Promise<boolean> {
  try {
    await get();
    return true;
  } catch (error) {
    if (error instanceof FliptError && error.code === GrpcCode.NotFound) return false;
    throw error;
  }
}

/** Validates a request body as the API would, naming the place on failure. */
function validated<S extends v.GenericSchema>(
  schema: S,
  body: Record<string, unknown>,
  place: string,
): v.InferOutput<S> {
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

async function importDocument(
  writer: FliptWriter,
  document: FeaturesDocument,
  options: ImportOptions,
  summary: ImportSummary,
) {
  const namespaceKey = document.namespace.key;
  const at = `namespace "${namespaceKey}"`;
  if (!(await exists(() => writer.getNamespace(namespaceKey)))) {
    const { name = namespaceKey, description = '' } = document.namespace;
    const input = validated(CreateNamespaceRequest, { key: namespaceKey, name: name || namespaceKey, description }, at);
    await step(at, () => writer.createNamespace(input));
  }
  if (!summary.namespaces.includes(namespaceKey)) summary.namespaces.push(namespaceKey);

  const imported: FlagDocument[] = [];
  for (const flag of document.flags) {
    if (options.skipExisting && (await exists(() => writer.getFlag(namespaceKey, flag.key)))) {
      summary.skipped++;
      continue;
    }
    imported.push(flag);
  }
  const variantIds = new Map<string, Map<string, string>>();
  for (const flag of imported) variantIds.set(flag.key, await importFlag(writer, namespaceKey, flag, at));

  for (const segment of document.segments) {
    if (options.skipExisting && (await exists(() => writer.getSegment(namespaceKey, segment.key)))) {
      summary.skipped++;
      continue;
    }
    await importSegment(writer, namespaceKey, segment, at);
    summary.segments++;
  }

  for (const flag of imported) {
    await importRulesAndRollouts(writer, namespaceKey, flag, variantIds.get(flag.key)!, `${at}, flag "${flag.key}"`);
    summary.flags++;
  }
}

/** Creates the flag and its variants, then marks the default variant; returns variant ids by key. */
async function importFlag(
  writer: FliptWriter,
  namespaceKey: string,
  flag: FlagDocument,
  parent: string,
): Promise<Map<string, string>> {
  const at = `${parent}, flag "${flag.key}"`;
  const { key, name, description, enabled, type, metadata } = flag;
  const input = validated(CreateFlagRequest, { namespaceKey, key, name, description, enabled, type, metadata }, at);
  await step(at, () => writer.createFlag(input));

  const ids = new Map<string, string>();
  let defaultVariantId = '';
  for (const variant of flag.variants) {
    const place = `${at}, variant "${variant.key}"`;
    const body = {
      namespaceKey,
      flagKey: key,
      key: variant.key,
      name: variant.name,
      description: variant.description,
      attachment: variant.attachment,
    };
    const created = await step(place, () => writer.createVariant(validated(CreateVariantRequest, body, place)));
    ids.set(variant.key, created.id);
    // Several variants marked default: the last one wins, as in Flipt.
    if (variant.default) defaultVariantId = created.id;
  }
  if (defaultVariantId) {
    const update = validated(
      UpdateFlagRequest,
      { namespaceKey, key, name, description, enabled, defaultVariantId },
      at,
    );
    await step(at, () => writer.updateFlag(update));
  }
  return ids;
}

async function importSegment(
  writer: FliptWriter,
  namespaceKey: string,
  segment: SegmentDocument,
  parent: string,
): Promise<void> {
  const at = `${parent}, segment "${segment.key}"`;
  const { key, name, description, matchType } = segment;
  const input = validated(CreateSegmentRequest, { namespaceKey, key, name, description, matchType }, at);
  await step(at, () => writer.createSegment(input));
  for (const [index, constraint] of segment.constraints.entries()) {
    const place = `${at}, constraints[${index}] (property "${constraint.property}")`;
    const body = { namespaceKey, segmentKey: key, ...constraint };
    await step(place, () => writer.createConstraint(validated(CreateConstraintRequest, body, place)));
  }
}

async function importRulesAndRollouts(
  writer: FliptWriter,
  namespaceKey: string,
  flag: FlagDocument,
  variantIds: Map<string, string>,
  at: string,
): Promise<void> {
  for (const [index, rule] of flag.rules.entries()) {
    const place = `${at}, rules[${index}]`;
    const body = {
      namespaceKey,
      flagKey: flag.key,
      segmentKeys: rule.segmentKeys,
      segmentOperator: rule.segmentOperator,
      rank: rule.rank,
    };
    const created = await step(place, () => writer.createRule(validated(CreateRuleRequest, body, place)));
    for (const [d, distribution] of rule.distributions.entries()) {
      const where = `${place}.distributions[${d}]`;
      const variantId = variantIds.get(distribution.variant);
      if (!variantId) throw new ImportError(`${where}: unknown variant "${distribution.variant}"`);
      const input = validated(
        CreateDistributionRequest,
        { namespaceKey, flagKey: flag.key, ruleId: created.id, variantId, rollout: distribution.rollout },
        where,
      );
      await step(where, () => writer.createDistribution(input));
    }
  }
  for (const [index, rollout] of flag.rollouts.entries()) {
    const place = `${at}, rollouts[${index}]`;
    const body = { namespaceKey, flagKey: flag.key, rank: index + 1, ...rollout };
    await step(place, () => writer.createRollout(validated(CreateRolloutRequest, body, place)));
  }
}
