import type * as v from 'valibot';
/** The create requests an imported document is checked with, as the API checks them. */
import * as requests from '../../../domain/flipt/schemas.js';
import { DEFAULT_NAMESPACE } from '../../../domain/flipt/types.js';
import { FliptError, GrpcCode } from '../errors.js';
import type { FliptStore, FliptWriter } from '../store/index.js';
import { emptyImportRows, type ImportRows } from '../store/bulk.js';
import { flagRow, notUniqueFlag, notUniqueVariant, variantRow } from '../store/flags.js';
import { constraintRow, notUniqueSegment, segmentRow } from '../store/segments.js';
import { distributionRow, missingRuleParts, ruleRow } from '../store/rules.js';
import { missingRolloutSegment, rolloutRow, rolloutSegmentRow, thresholdRow } from '../store/rollouts.js';
import { segmentKeyRows } from '../store/references.js';
import { type Dialect, nowTimestamp } from '../../db/codec.js';
import type { FeaturesDocument, FeaturesStream, FlagDocument, SegmentDocument } from './format.js';

export interface ImportOptions {
  /** Leave flags and segments whose key already exists as they are (and skip their contents). */
  skipExisting?: boolean;
  /** Remove every flag, segment and namespace but `default` first. */
  drop?: boolean;
  /** Told the number of flags imported so far after each batch is written. */
  onProgress?: (flags: number) => void;
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
 * Imports documents in ONE store transaction, all or nothing: every entity passes the API's request
 * schemas and the checks of the single writes (same messages), a read-only store refuses, and any
 * problem (a bad flag at the end of a streamed file too) rolls the whole import back. Documents are
 * read and written a thousand flags at a time, up to 5,000 rows per statement, so memory does not grow
 * with the file and a file of 10,000 flags takes a few dozen statements. The store publishes each
 * namespace touched after the commit.
 */
export async function importFeatures(
  store: FliptStore,
  documents: (FeaturesDocument | FeaturesStream)[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { namespaces: [], flags: 0, segments: 0, skipped: 0 };
  await store.transaction(async (writer) => {
    await writer.prepareImport();
    if (options.drop) await dropEverything(writer);
    for (const document of documents) await importDocument(writer, streamOf(document), options, summary);
  });
  return summary;
}

/** A parsed document as a stream of one chunk each. */
const streamOf = (document: FeaturesDocument | FeaturesStream): FeaturesStream =>
  'flagChunks' in document
    ? document
    : { namespace: document.namespace, flagChunks: () => [document.flags], segmentChunks: () => [document.segments] };

/** Empties every namespace and deletes all but `default`: a few statements per namespace. */
async function dropEverything(writer: FliptWriter): Promise<void> {
  for (const namespace of (await writer.listNamespaces()).namespaces) {
    if (namespace.key === DEFAULT_NAMESPACE) await writer.emptyNamespace(namespace.key);
    else await writer.deleteNamespace(namespace.key, { force: true });
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
  const result = requests.parseRequest(schema, body);
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

/**
 * Checks a namespace's document as the single writes would (the request schemas, unique keys, the
 * segments and variants each rule and rollout names) and inserts its rows in batches: segments
 * first, then flags a thousand at a time with their variants, rules and rollouts. Every row gets its
 * own (increasing) timestamp, so lists keep the file's order.
 */
async function importDocument(
  writer: FliptWriter,
  document: FeaturesStream,
  options: ImportOptions,
  summary: ImportSummary,
) {
  const namespaceKey = document.namespace.key;
  const at = `namespace "${namespaceKey}"`;
  if (!(await exists(() => writer.getNamespace(namespaceKey)))) {
    const { name = namespaceKey, description = '' } = document.namespace;
    const input = validated(
      requests.CreateNamespaceRequest,
      { key: namespaceKey, name: name || namespaceKey, description },
      at,
    );
    await step(at, () => writer.createNamespace(input));
  }
  if (!summary.namespaces.includes(namespaceKey)) summary.namespaces.push(namespaceKey);

  const flagKeys = await writer.keysIn('flags', namespaceKey);
  // Flags are checked first, as they are written first through the API (a namespace that has flags
  // costs one more read of the document's flags).
  if (flagKeys.size && !options.skipExisting) {
    for (const flags of document.flagChunks()) {
      const taken = flags.find((flag) => flagKeys.has(flag.key));
      if (taken) throw refused(`${at}, flag "${taken.key}"`, notUniqueFlag(namespaceKey, taken.key));
    }
  }

  const segmentKeys = await writer.keysIn('segments', namespaceKey);
  for (const segments of document.segmentChunks()) {
    const rows = emptyImportRows();
    for (const segment of segments) {
      if (segmentKeys.has(segment.key)) {
        if (!options.skipExisting)
          throw refused(`${at}, segment "${segment.key}"`, notUniqueSegment(namespaceKey, segment.key));
        summary.skipped++;
        continue;
      }
      addSegment(rows, namespaceKey, segment, at);
      segmentKeys.add(segment.key);
      summary.segments++;
    }
    await writer.insertImportRows(namespaceKey, rows);
  }

  let rows = emptyImportRows();
  const flush = async () => {
    await writer.insertImportRows(namespaceKey, rows);
    rows = emptyImportRows();
    options.onProgress?.(summary.flags);
  };
  for (const flags of document.flagChunks()) {
    for (const flag of flags) {
      if (flagKeys.has(flag.key)) {
        if (!options.skipExisting) throw refused(`${at}, flag "${flag.key}"`, notUniqueFlag(namespaceKey, flag.key));
        summary.skipped++;
        continue;
      }
      addFlag(rows, writer.dialect, namespaceKey, flag, segmentKeys, `${at}, flag "${flag.key}"`);
      flagKeys.add(flag.key);
      summary.flags++;
      if (rows.flags.length === FLAGS_PER_BATCH) await flush();
    }
  }
  await flush();
}

/** Flags whose rows are inserted together: bounds the rows held in memory at once. */
const FLAGS_PER_BATCH = 1000;

/** An import refused by a check the single write would make, naming the place. */
const refused = (place: string, error: FliptError) => new ImportError(`${place}: ${error.message}`);

function addSegment(rows: ImportRows, namespaceKey: string, segment: SegmentDocument, parent: string) {
  const at = `${parent}, segment "${segment.key}"`;
  const { key, name, description, matchType } = segment;
  rows.segments.push(
    segmentRow(
      validated(requests.CreateSegmentRequest, { namespaceKey, key, name, description, matchType }, at),
      nowTimestamp(),
    ),
  );
  for (const [index, constraint] of segment.constraints.entries()) {
    const place = `${at}, constraints[${index}] (property "${constraint.property}")`;
    const body = { namespaceKey, segmentKey: key, ...constraint };
    rows.constraints.push(constraintRow(validated(requests.CreateConstraintRequest, body, place), nowTimestamp()));
  }
}

/** Adds the rows of a flag, its variants (the last one marked default is the default), rules and rollouts. */
function addFlag(
  rows: ImportRows,
  dialect: Dialect,
  namespaceKey: string,
  flag: FlagDocument,
  segmentKeys: Set<string>,
  at: string,
) {
  const { key, name, description, enabled, type, metadata } = flag;
  const input = validated(
    requests.CreateFlagRequest,
    { namespaceKey, key, name, description, enabled, type, metadata },
    at,
  );
  const created = nowTimestamp();

  const variantIds = new Map<string, string>();
  let defaultVariantId: string | undefined;
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
    const variantInput = validated(requests.CreateVariantRequest, body, place);
    if (variantIds.has(variantInput.key)) throw refused(place, notUniqueVariant(variantInput));
    const row = variantRow(variantInput, nowTimestamp());
    rows.variants.push(row);
    variantIds.set(variant.key, row.id);
    if (variant.default) defaultVariantId = row.id;
  }
  rows.flags.push(flagRow(dialect, input, created, defaultVariantId));

  for (const [index, rule] of flag.rules.entries()) {
    const place = `${at}, rules[${index}]`;
    const body = {
      namespaceKey,
      flagKey: key,
      segmentKeys: rule.segmentKeys,
      segmentOperator: rule.segmentOperator,
      rank: rule.rank,
    };
    const ruleInput = validated(requests.CreateRuleRequest, body, place);
    const missing = ruleInput.segments.find((segmentKey) => !segmentKeys.has(segmentKey));
    if (missing !== undefined) throw refused(place, missingRuleParts(namespaceKey, key, missing));
    const row = ruleRow(ruleInput, nowTimestamp());
    rows.rules.push(row);
    rows.rule_segments.push(...segmentKeyRows('rules', row.id, namespaceKey, ruleInput.segments));
    for (const [d, distribution] of rule.distributions.entries()) {
      const where = `${place}.distributions[${d}]`;
      const variantId = variantIds.get(distribution.variant);
      if (!variantId) throw new ImportError(`${where}: unknown variant "${distribution.variant}"`);
      const body = { namespaceKey, flagKey: key, ruleId: row.id, variantId, rollout: distribution.rollout };
      rows.distributions.push(
        distributionRow(validated(requests.CreateDistributionRequest, body, where), nowTimestamp()),
      );
    }
  }

  for (const [index, rollout] of flag.rollouts.entries()) {
    const place = `${at}, rollouts[${index}]`;
    const rolloutInput = validated(
      requests.CreateRolloutRequest,
      { namespaceKey, flagKey: key, rank: index + 1, ...rollout },
      place,
    );
    const row = withPlace(place, () => rolloutRow(rolloutInput, nowTimestamp()));
    rows.rollouts.push(row);
    if (rolloutInput.threshold) {
      rows.rollout_thresholds.push(thresholdRow(dialect, row.id, rolloutInput.threshold));
      continue;
    }
    const segment = rolloutInput.segment!;
    const missing = segment.segments.find((segmentKey) => !segmentKeys.has(segmentKey));
    if (missing !== undefined) throw refused(place, missingRolloutSegment(namespaceKey, missing));
    rows.rollout_segments.push(rolloutSegmentRow(dialect, row.id, segment));
    rows.rollout_segment_references.push(...segmentKeyRows('rollouts', row.id, namespaceKey, segment.segments));
  }
}

/** Runs a synchronous check that throws Flipt's errors, reworded to name the place. */
function withPlace<T>(place: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof FliptError) throw refused(place, error);
    throw error;
  }
}
