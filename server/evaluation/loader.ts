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
 * next is read.
 */
export function loadNamespace(database: Database, namespaceKey: string): Promise<LoadedNamespace> {
  return database.readTransaction(async (trx) => {
    const document: SnapshotDocument = { namespace: { key: namespaceKey }, flags: [] };
    const namespace = await trx
      .selectFrom('namespaces')
      .select('key')
      .where('key', '=', namespaceKey)
      .executeTakeFirst();
    if (!namespace) return { exists: false, document, segments: new Map() };

    const segments = await readSegments(trx, namespaceKey);
    const segmentsOf = (keys: { segment_key: string }[]) =>
      keys.map((k) => segments.get(k.segment_key)).filter((s): s is SnapshotSegment => s !== undefined);
    const rulesByFlag = await readRules(trx, namespaceKey, segmentsOf);
    const rolloutsByFlag = await readRollouts(trx, namespaceKey, segmentsOf);
    const defaultVariants = new Map(
      (
        await trx
          .selectFrom('variants')
          .innerJoin('flags', 'flags.default_variant_id', 'variants.id')
          .select(['variants.id', 'variants.key', 'variants.attachment'])
          .where('flags.namespace_key', '=', namespaceKey)
          .execute()
      ).map((v) => [v.id, v]),
    );

    let after: FlagRow | undefined;
    do {
      const page = await readFlagPage(trx, database.dialect, namespaceKey, after);
      for (const [key, name, description, enabled, flagType, defaultVariantId, createdAt, updatedAt] of page) {
        const type = flagType as FlagType;
        const defaultVariant =
          type === 'VARIANT_FLAG_TYPE' && defaultVariantId ? defaultVariants.get(defaultVariantId) : undefined;
        document.flags.push({
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
        });
      }
      after = page.length === FLAGS_PER_PAGE ? page[page.length - 1] : undefined;
    } while (after);
    return { exists: true, document, segments };
  });
}

type Reader = Transaction<Tables>;

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

type SegmentsOf = (keys: { segment_key: string }[]) => SnapshotSegment[];

/** The namespace's segments with their constraints, by key. */
async function readSegments(trx: Reader, ns: string): Promise<Map<string, SnapshotSegment>> {
  const rows = await trx
    .selectFrom('segments')
    .select(['key', 'match_type'])
    .where('namespace_key', '=', ns)
    .orderBy('created_at')
    .orderBy('key')
    .execute();
  const constraints = await trx
    .selectFrom('constraints')
    .select(['id', 'segment_key', 'type', 'property', 'operator', 'value'])
    .where('namespace_key', '=', ns)
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
      createdAt: null,
      updatedAt: null,
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

/** The namespace's rules with their segments and distributions, by flag key, in rank order. */
async function readRules(trx: Reader, ns: string, segmentsOf: SegmentsOf): Promise<Map<string, SnapshotRule[]>> {
  const rules = await trx
    .selectFrom('rules')
    .select(['id', 'flag_key', 'rank', 'segment_operator'])
    .where('namespace_key', '=', ns)
    .orderBy('rank')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const ruleSegments = await trx
    .selectFrom('rule_segments')
    .innerJoin('rules', 'rules.id', 'rule_segments.rule_id')
    .select(['rule_segments.rule_id', 'rule_segments.segment_key'])
    .where('rules.namespace_key', '=', ns)
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

/** The namespace's rollouts with their threshold or segments, by flag key, in rank order. */
async function readRollouts(trx: Reader, ns: string, segmentsOf: SegmentsOf): Promise<Map<string, SnapshotRollout[]>> {
  const rollouts = await trx
    .selectFrom('rollouts')
    .select(['id', 'flag_key', 'type', 'rank'])
    .where('namespace_key', '=', ns)
    .orderBy('rank')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const thresholds = await trx
    .selectFrom('rollout_thresholds')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_thresholds.rollout_id')
    .selectAll('rollout_thresholds')
    .where('rollouts.namespace_key', '=', ns)
    .orderBy('rollout_thresholds.rollout_id')
    .execute();
  const rolloutSegments = await trx
    .selectFrom('rollout_segments')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_segments.rollout_id')
    .selectAll('rollout_segments')
    .where('rollouts.namespace_key', '=', ns)
    .orderBy('rollout_segments.rollout_id')
    .execute();
  const rolloutReferences = await trx
    .selectFrom('rollout_segment_references')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_segment_references.rollout_id')
    .select(['rollout_segment_references.rollout_id', 'rollout_segment_references.segment_key'])
    .where('rollouts.namespace_key', '=', ns)
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
