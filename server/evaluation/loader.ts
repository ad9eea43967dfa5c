import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/index.js';
import { type Dialect, toBool } from '../db/codec.js';
import type { Database as Tables } from '../db/schema.js';
import { formatTimestamp } from '../flipt/timestamps.js';
import type { FlagType, RolloutType, SegmentOperator } from '../../domain/flipt/types.js';
import {
  snapshotComparisonType,
  snapshotMatchType,
  type SnapshotDocument,
  type SnapshotFlag,
  type SnapshotRule,
  type SnapshotRollout,
  type SnapshotSegment,
} from '../../domain/evaluation/index.js';

/** A namespace's evaluation data as read from the database, in the snapshot document's shape. */
export interface LoadedNamespace {
  exists: boolean;
  document: SnapshotDocument;
  /** Every segment of the namespace by key, also those no flag uses (surveys target them). */
  segments: Map<string, SnapshotSegment>;
}

/** Flags are read this many at a time, so that at most one page of raw rows is held besides the document. */
const FLAGS_PER_PAGE = 5000;

/**
 * Reads one namespace's flags, segments, rules and rollouts in one consistent read transaction.
 * At 100,000 flags, reading rows is most of a snapshot's first build: each query selects only the
 * columns the document shows, variants only where a flag's default or a distribution names them,
 * and flags page by page (readFlagPage), each page turned into the document's entries before the
 * next is read. Between its steps it lets other tasks run: libSQL answers without a turn of the event
 * loop, so on SQLite a whole load would otherwise hold evaluations up for its duration.
 */
export function loadNamespace(database: Database, namespaceKey: string): Promise<LoadedNamespace> {
  return database.readTransaction(async (trx) => {
    const document: SnapshotDocument = { namespace: { key: namespaceKey }, flags: [] };
    if (!(await namespaceExists(trx, namespaceKey))) return { exists: false, document, segments: new Map() };

    const segments = await readSegments(trx, namespaceKey);
    await nextTurn();
    const entries = await flagEntries(trx, namespaceKey, segments, undefined, nextTurn);
    let after: FlagRow | undefined;
    do {
      await nextTurn();
      const page = await readFlagPage(trx, database.dialect, namespaceKey, after);
      for (const row of page) document.flags.push(entries(row));
      after = page.length === FLAGS_PER_PAGE ? page[page.length - 1] : undefined;
    } while (after);
    return { exists: true, document, segments };
  });
}

/** Flags and segments of a namespace read again after they changed (see NamespaceSnapshot.apply). */
export interface NamespaceParts {
  exists: boolean;
  /** Each flag asked for as it is now, or null if it is gone. */
  flags: Map<string, SnapshotFlag | null>;
  /** Each segment asked for as it is now, or null if it is gone. */
  segments: Map<string, SnapshotSegment | null>;
  /**
   * For each flag asked to be placed that exists: the keys of the flags before it in the document's
   * order (creation time, then key, as the database orders them), nearest first, at most PLACING_DEPTH.
   */
  before: Map<string, string[]>;
}

/** How many flags before a new one are read to find its place among those already in a snapshot. */
export const PLACING_DEPTH = 64;

export interface PartsRequest {
  flags: Iterable<string>;
  segments: Iterable<string>;
  /** Flags that may be new to the snapshot, whose place in its order is needed. */
  placing: Iterable<string>;
}

/**
 * Reads only the given flags (with their rules, rollouts and the segments those use) and segments of a
 * namespace, in one consistent read transaction: what a change to them costs is in proportion to them,
 * not to the namespace. Like loadNamespace, it lets other tasks run between its steps: under a stream of
 * writes these loads follow each other, and evaluations answer in between.
 */
export function loadNamespaceParts(
  database: Database,
  namespaceKey: string,
  request: PartsRequest,
): Promise<NamespaceParts> {
  const flagKeys = [...new Set(request.flags)];
  const segmentKeys = new Set(request.segments);
  return database.readTransaction(async (trx) => {
    const parts: NamespaceParts = { exists: false, flags: new Map(), segments: new Map(), before: new Map() };
    if (!(await namespaceExists(trx, namespaceKey))) return parts;
    parts.exists = true;

    for (const key of await segmentsUsedBy(trx, namespaceKey, flagKeys)) segmentKeys.add(key);
    const segments = await readSegments(trx, namespaceKey, [...segmentKeys]);
    for (const key of request.segments) parts.segments.set(key, segments.get(key) ?? null);

    await nextTurn();
    const entries = await flagEntries(trx, namespaceKey, segments, flagKeys, nextTurn);
    await nextTurn();
    const rows = await readFlagRows(trx, namespaceKey, flagKeys);
    for (const key of flagKeys) parts.flags.set(key, null);
    for (const row of rows) parts.flags.set(row[0], entries(row));

    const placing = new Set(request.placing);
    for (const row of rows) {
      if (!placing.has(row[0])) continue;
      await nextTurn();
      parts.before.set(row[0], await flagsBefore(trx, namespaceKey, row));
    }
    return parts;
  });
}

type Reader = Transaction<Tables>;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function namespaceExists(trx: Reader, namespaceKey: string): Promise<boolean> {
  const namespace = await trx.selectFrom('namespaces').select('key').where('key', '=', namespaceKey).executeTakeFirst();
  return namespace !== undefined;
}

/**
 * Reads the rules, rollouts and default variants of the namespace's flags (of `flagKeys` only, when
 * given), and answers a function turning a flag's row into its document entry.
 */
async function flagEntries(
  trx: Reader,
  ns: string,
  segments: Map<string, SnapshotSegment>,
  flagKeys?: string[],
  between = async () => {},
): Promise<(row: FlagRow) => SnapshotFlag> {
  const segmentsOf = (keys: { segment_key: string }[]) =>
    keys.map((k) => segments.get(k.segment_key)).filter((s): s is SnapshotSegment => s !== undefined);
  const rulesByFlag = await readRules(trx, ns, segmentsOf, flagKeys);
  await between();
  const rolloutsByFlag = await readRollouts(trx, ns, segmentsOf, flagKeys);
  await between();
  const variants =
    flagKeys?.length === 0
      ? []
      : await trx
          .selectFrom('variants')
          .innerJoin('flags', 'flags.default_variant_id', 'variants.id')
          .select(['variants.id', 'variants.key', 'variants.attachment'])
          .where('flags.namespace_key', '=', ns)
          .$if(flagKeys !== undefined, (q) => q.where('flags.key', 'in', flagKeys!))
          .execute();
  const defaultVariants = new Map(variants.map((v) => [v.id, v]));

  return ([key, name, description, enabled, flagType, defaultVariantId, createdAt, updatedAt]) => {
    const type = flagType as FlagType;
    const defaultVariant =
      type === 'VARIANT_FLAG_TYPE' && defaultVariantId ? defaultVariants.get(defaultVariantId) : undefined;
    return {
      key,
      name,
      description,
      enabled: toBool(enabled),
      type,
      createdAt: formatTimestamp(createdAt),
      updatedAt: formatTimestamp(updatedAt),
      rules: type === 'VARIANT_FLAG_TYPE' ? (rulesByFlag.get(key) ?? []) : [],
      rollouts: type === 'BOOLEAN_FLAG_TYPE' ? (rolloutsByFlag.get(key) ?? []) : [],
      ...(defaultVariant && {
        defaultVariant: { id: defaultVariant.id, key: defaultVariant.key, attachment: defaultVariant.attachment },
      }),
    };
  };
}
/** key, name, description, enabled, type, default_variant_id, created_at, updated_at */
type FlagRow = [string, string, string, number | boolean, string, string | null, string, string];

/**
 * The next page of the namespace's flags after `after`, by creation time then key (the
 * `flags_list_idx` order), as one JSON array built by the database: the SQLite driver spends most of
 * a 100,000-flag read building one object per row and column (about 770 CPU ms for the rows against
 * 200 for the array, measured on SQLite). The functions differ by dialect, the query does not.
 */
async function readFlagPage(trx: Reader, dialect: Dialect, ns: string, after: FlagRow | undefined): Promise<FlagRow[]> {
  const [array, aggregate] =
    dialect === 'postgres'
      ? [sql.raw('json_build_array'), sql.raw('json_agg')]
      : [sql.raw('json_array'), sql.raw('json_group_array')];
  const from = after ? sql`and (created_at, key) > (${after[6]}, ${after[0]})` : sql``;
  const { rows } = await sql<{ page: string | FlagRow[] | null }>`
    select ${aggregate}(${array}(key, name, description, enabled, type, default_variant_id, created_at, updated_at)
      order by created_at, key) as page
    from (
      select * from flags where namespace_key = ${ns} ${from} order by created_at, key limit ${FLAGS_PER_PAGE}
    ) as flags_page`.execute(trx);
  const page = rows[0]?.page ?? [];
  // PostgreSQL's driver parses json results; SQLite answers the text.
  return typeof page === 'string' ? (JSON.parse(page) as FlagRow[]) : page;
}

/** The given flags' rows, in the form of readFlagPage's. */
async function readFlagRows(trx: Reader, ns: string, keys: string[]): Promise<FlagRow[]> {
  if (keys.length === 0) return [];
  const rows = await trx
    .selectFrom('flags')
    .select(['key', 'name', 'description', 'enabled', 'type', 'default_variant_id', 'created_at', 'updated_at'])
    .where('namespace_key', '=', ns)
    .where('key', 'in', keys)
    .execute();
  return rows.map((f) => [
    f.key,
    f.name,
    f.description,
    f.enabled,
    f.type,
    f.default_variant_id,
    f.created_at,
    f.updated_at,
  ]);
}

/** The keys of the flags before `row` in readFlagPage's order, nearest first. */
async function flagsBefore(trx: Reader, ns: string, row: FlagRow): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    select key from flags where namespace_key = ${ns} and (created_at, key) < (${row[6]}, ${row[0]})
    order by created_at desc, key desc limit ${PLACING_DEPTH}`.execute(trx);
  return rows.map((r) => r.key);
}

/** The keys of the segments the given flags' rules and rollouts use. */
async function segmentsUsedBy(trx: Reader, ns: string, flagKeys: string[]): Promise<string[]> {
  if (flagKeys.length === 0) return [];
  const byRules = await trx
    .selectFrom('rule_segments')
    .innerJoin('rules', 'rules.id', 'rule_segments.rule_id')
    .select('rule_segments.segment_key')
    .where('rules.namespace_key', '=', ns)
    .where('rules.flag_key', 'in', flagKeys)
    .execute();
  const byRollouts = await trx
    .selectFrom('rollout_segment_references')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_segment_references.rollout_id')
    .select('rollout_segment_references.segment_key')
    .where('rollouts.namespace_key', '=', ns)
    .where('rollouts.flag_key', 'in', flagKeys)
    .execute();
  return [...new Set([...byRules, ...byRollouts].map((r) => r.segment_key))];
}

type SegmentsOf = (keys: { segment_key: string }[]) => SnapshotSegment[];

/** The namespace's segments (those of `keys` only, when given) with their constraints, by key. */
async function readSegments(trx: Reader, ns: string, keys?: string[]): Promise<Map<string, SnapshotSegment>> {
  if (keys?.length === 0) return new Map();
  const rows = await trx
    .selectFrom('segments')
    .select(['key', 'match_type'])
    .where('namespace_key', '=', ns)
    .$if(keys !== undefined, (q) => q.where('key', 'in', keys!))
    .orderBy('created_at')
    .orderBy('key')
    .execute();
  const constraints = await trx
    .selectFrom('constraints')
    .select(['id', 'segment_key', 'type', 'property', 'operator', 'value'])
    .where('namespace_key', '=', ns)
    .$if(keys !== undefined, (q) => q.where('segment_key', 'in', keys!))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const constraintsBySegment = groupBy(constraints, (c) => c.segment_key);
  const segments = new Map<string, SnapshotSegment>();
  for (const segment of rows) {
    segments.set(segment.key, {
      key: segment.key,
      name: '',
      description: '',
      matchType: snapshotMatchType(segment.match_type),
      constraints: (constraintsBySegment.get(segment.key) ?? []).map((c) => ({
        id: c.id,
        type: snapshotComparisonType(c.type),
        property: c.property,
        operator: c.operator,
        value: c.value,
      })),
    });
  }
  return segments;
}

/** The namespace's rules (of `flagKeys` only, when given) with their segments and distributions, by flag key, in rank order. */
async function readRules(
  trx: Reader,
  ns: string,
  segmentsOf: SegmentsOf,
  flagKeys?: string[],
): Promise<Map<string, SnapshotRule[]>> {
  if (flagKeys?.length === 0) return new Map();
  const rules = await trx
    .selectFrom('rules')
    .select(['id', 'flag_key', 'rank', 'segment_operator'])
    .where('namespace_key', '=', ns)
    .$if(flagKeys !== undefined, (q) => q.where('flag_key', 'in', flagKeys!))
    .orderBy('rank')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const ruleSegments = await trx
    .selectFrom('rule_segments')
    .innerJoin('rules', 'rules.id', 'rule_segments.rule_id')
    .select(['rule_segments.rule_id', 'rule_segments.segment_key'])
    .where('rules.namespace_key', '=', ns)
    .$if(flagKeys !== undefined, (q) => q.where('rules.flag_key', 'in', flagKeys!))
    .orderBy('rule_segments.rule_id')
    .orderBy('rule_segments.segment_key')
    .execute();
  const distributions = await trx
    .selectFrom('distributions')
    .innerJoin('rules', 'rules.id', 'distributions.rule_id')
    .innerJoin('variants', 'variants.id', 'distributions.variant_id')
    .select([
      'distributions.rule_id',
      'distributions.variant_id',
      'distributions.rollout',
      'variants.key as variant_key',
      'variants.attachment as variant_attachment',
    ])
    .where('rules.namespace_key', '=', ns)
    .$if(flagKeys !== undefined, (q) => q.where('rules.flag_key', 'in', flagKeys!))
    .orderBy('distributions.created_at')
    .orderBy('distributions.id')
    .execute();
  const segmentsByRule = groupBy(ruleSegments, (r) => r.rule_id);
  const distributionsByRule = groupBy(distributions, (d) => d.rule_id);
  const rulesByFlag = new Map<string, SnapshotRule[]>();
  for (const rule of rules) {
    const ruleSegmentList = segmentsOf(segmentsByRule.get(rule.id) ?? []);
    if (ruleSegmentList.length === 0) continue;
    const list = rulesByFlag.get(rule.flag_key) ?? [];
    rulesByFlag.set(rule.flag_key, list);
    list.push({
      id: rule.id,
      segments: ruleSegmentList,
      rank: rule.rank,
      segmentOperator: rule.segment_operator as SegmentOperator,
      distributions: (distributionsByRule.get(rule.id) ?? []).map((d) => ({
        id: '',
        ruleId: '',
        variantId: d.variant_id,
        variantKey: d.variant_key,
        variantAttachment: d.variant_attachment,
        rollout: d.rollout,
      })),
    });
  }
  return rulesByFlag;
}

/** The namespace's rollouts (of `flagKeys` only, when given) with their threshold or segments, by flag key, in rank order. */
async function readRollouts(
  trx: Reader,
  ns: string,
  segmentsOf: SegmentsOf,
  flagKeys?: string[],
): Promise<Map<string, SnapshotRollout[]>> {
  if (flagKeys?.length === 0) return new Map();
  const rollouts = await trx
    .selectFrom('rollouts')
    .select(['id', 'flag_key', 'type', 'rank'])
    .where('namespace_key', '=', ns)
    .$if(flagKeys !== undefined, (q) => q.where('flag_key', 'in', flagKeys!))
    .orderBy('rank')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const thresholds = await trx
    .selectFrom('rollout_thresholds')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_thresholds.rollout_id')
    .selectAll('rollout_thresholds')
    .where('rollouts.namespace_key', '=', ns)
    .$if(flagKeys !== undefined, (q) => q.where('rollouts.flag_key', 'in', flagKeys!))
    .orderBy('rollout_thresholds.rollout_id')
    .execute();
  const rolloutSegments = await trx
    .selectFrom('rollout_segments')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_segments.rollout_id')
    .selectAll('rollout_segments')
    .where('rollouts.namespace_key', '=', ns)
    .$if(flagKeys !== undefined, (q) => q.where('rollouts.flag_key', 'in', flagKeys!))
    .orderBy('rollout_segments.rollout_id')
    .execute();
  const rolloutReferences = await trx
    .selectFrom('rollout_segment_references')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_segment_references.rollout_id')
    .select(['rollout_segment_references.rollout_id', 'rollout_segment_references.segment_key'])
    .where('rollouts.namespace_key', '=', ns)
    .$if(flagKeys !== undefined, (q) => q.where('rollouts.flag_key', 'in', flagKeys!))
    .orderBy('rollout_segment_references.rollout_id')
    .orderBy('rollout_segment_references.segment_key')
    .execute();
  const thresholdOf = new Map(thresholds.map((t) => [t.rollout_id, t]));
  const segmentOf = new Map(rolloutSegments.map((s) => [s.rollout_id, s]));
  const references = groupBy(rolloutReferences, (r) => r.rollout_id);
  const rolloutsByFlag = new Map<string, SnapshotRollout[]>();
  for (const rollout of rollouts) {
    const threshold = thresholdOf.get(rollout.id);
    const segment = segmentOf.get(rollout.id);
    const entry: SnapshotRollout = { type: rollout.type as RolloutType, rank: rollout.rank };
    if (threshold) entry.threshold = { percentage: threshold.percentage, value: toBool(threshold.value) };
    else if (segment) {
      entry.segment = {
        value: toBool(segment.value),
        segmentOperator: segment.segment_operator as SegmentOperator,
        segments: segmentsOf(references.get(rollout.id) ?? []),
      };
    } else continue;
    const list = rolloutsByFlag.get(rollout.flag_key) ?? [];
    rolloutsByFlag.set(rollout.flag_key, list);
    list.push(entry);
  }
  return rolloutsByFlag;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
