import { randomUUID } from 'node:crypto';
import type { Distribution, Rule, RuleList, SegmentOperator } from '../../../domain/flipt/types.js';
import type {
  CreateDistributionInput,
  CreateRuleInput,
  DeleteDistributionInput,
  ListInput,
  OrderRulesInput,
  UpdateDistributionInput,
  UpdateRuleInput,
} from '../../../domain/flipt/schemas.js';
import type { DistributionsTable, RulesTable } from '../../db/schema.js';
import { nowTimestamp } from '../../db/codec.js';
import { formatTimestamp } from '../timestamps.js';
import { notFound } from '../errors.js';
import type { Executor } from '../../db/executor.js';
import { flagPage, pageWindow } from './pagination.js';
import { findFlag } from './flags.js';
import { firstMissingSegment } from './segments.js';
import { deleteRanked, orderByIds } from './ranks.js';
import { insertSegmentKeys, segmentKeysOf } from './references.js';
import { rankedByFlag } from './children.js';

function distributionFromRow(row: DistributionsTable): Distribution {
  return {
    id: row.id,
    ruleId: row.rule_id,
    variantId: row.variant_id,
    rollout: Number(row.rollout),
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
  };
}

/** One segment travels as `segmentKey`, several as `segmentKeys`. */
export function segmentReference(keys: string[]): { segmentKey: string; segmentKeys: string[] } {
  return keys.length === 1 ? { segmentKey: keys[0], segmentKeys: [] } : { segmentKey: '', segmentKeys: keys };
}

/** With one segment the operator is always OR. */
export function effectiveOperator(segments: string[], operator: SegmentOperator): SegmentOperator {
  return segments.length > 1 ? operator : 'OR_SEGMENT_OPERATOR';
}

function ruleFromRow(row: RulesTable, segmentKeys: string[], distributions: DistributionsTable[]): Rule {
  const { segmentKey, segmentKeys: keys } = segmentReference(segmentKeys);
  return {
    id: row.id,
    flagKey: row.flag_key,
    segmentKey,
    distributions: distributions.map(distributionFromRow),
    rank: row.rank,
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
    namespaceKey: row.namespace_key,
    segmentKeys: keys,
    segmentOperator: row.segment_operator as SegmentOperator,
  };
}

async function rulesFromRows(executor: Executor, rows: RulesTable[]): Promise<Rule[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [segments, distributions] = await Promise.all([
    segmentKeysOf(executor, 'rules', ids),
    executor.db
      .selectFrom('distributions')
      .selectAll()
      .where('rule_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return rows.map((row) =>
    ruleFromRow(
      row,
      segments.get(row.id) ?? [],
      distributions.filter((distribution) => distribution.rule_id === row.id),
    ),
  );
}

export async function listRules(
  executor: Executor,
  namespaceKey: string,
  flagKey: string,
  page: ListInput,
): Promise<RuleList> {
  const result = await flagPage(executor, 'rules', namespaceKey, flagKey, pageWindow(page, { requireLimit: true }));
  return {
    rules: await rulesFromRows(executor, result.rows),
    nextPageToken: result.nextPageToken,
    totalCount: result.totalCount,
  };
}

/** The rules of each of the given flags, by rank, by flag key (every key gets an entry). */
export function rulesOfFlags(
  executor: Executor,
  namespaceKey: string,
  flagKeys: string[],
): Promise<Map<string, Rule[]>> {
  return rankedByFlag(executor, 'rules', namespaceKey, flagKeys, rulesFromRows);
}

async function findRule(
  { db }: Executor,
  namespaceKey: string,
  flagKey: string,
  id: string,
): Promise<RulesTable | undefined> {
  return db
    .selectFrom('rules')
    .selectAll()
    .where('id', '=', id)
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .executeTakeFirst();
}

async function requireRule(executor: Executor, namespaceKey: string, flagKey: string, id: string): Promise<RulesTable> {
  const row = await findRule(executor, namespaceKey, flagKey, id);
  if (!row) throw notFound(`rule "${namespaceKey}/${id}"`);
  return row;
}

export async function getRule(executor: Executor, namespaceKey: string, flagKey: string, id: string): Promise<Rule> {
  const [rule] = await rulesFromRows(executor, [await requireRule(executor, namespaceKey, flagKey, id)]);
  return rule;
}

/** Flipt's one 404 for a rule whose flag or one of whose segments is missing. */
export const missingRuleParts = (namespaceKey: string, flagKey: string, segmentKey: string) =>
  notFound(`flag "${namespaceKey}/${flagKey}" or segment "${namespaceKey}/${segmentKey}"`);

async function requireFlagAndSegments(
  executor: Executor,
  namespaceKey: string,
  flagKey: string,
  segments: string[],
): Promise<void> {
  const flag = await findFlag(executor, namespaceKey, flagKey);
  const missing = flag ? await firstMissingSegment(executor, namespaceKey, segments) : segments[0];
  if (missing !== undefined) throw missingRuleParts(namespaceKey, flagKey, missing);
}

/** The row of a new rule, with a new id (its segment keys go to `rule_segments`). */
export function ruleRow(input: CreateRuleInput, now: string): RulesTable {
  return {
    id: randomUUID(),
    namespace_key: input.namespaceKey,
    flag_key: input.flagKey,
    rank: input.rank,
    segment_operator: effectiveOperator(input.segments, input.segmentOperator),
    created_at: now,
    updated_at: now,
  };
}

export async function createRule(executor: Executor, input: CreateRuleInput): Promise<Rule> {
  const { namespaceKey, flagKey, segments } = input;
  await requireFlagAndSegments(executor, namespaceKey, flagKey, segments);
  const row = ruleRow(input, nowTimestamp());
  await executor.db.insertInto('rules').values(row).execute();
  await insertSegmentKeys(executor, 'rules', row.id, namespaceKey, segments);
  return ruleFromRow(row, [...segments].sort(), []);
}

/** Replaces the segment set and operator; the rank stays. */
export async function updateRule(executor: Executor, input: UpdateRuleInput): Promise<Rule> {
  const { namespaceKey, flagKey, id, segments } = input;
  const row = await requireRule(executor, namespaceKey, flagKey, id);
  await requireFlagAndSegments(executor, namespaceKey, flagKey, segments);
  const changed = { segment_operator: effectiveOperator(segments, input.segmentOperator), updated_at: nowTimestamp() };
  await executor.db.updateTable('rules').set(changed).where('id', '=', id).execute();
  await executor.db.deleteFrom('rule_segments').where('rule_id', '=', id).execute();
  await insertSegmentKeys(executor, 'rules', id, namespaceKey, segments);
  const [rule] = await rulesFromRows(executor, [{ ...row, ...changed }]);
  return rule;
}

/** Idempotent; the remaining rules are ranked 1..n again. */
export async function deleteRule(executor: Executor, namespaceKey: string, flagKey: string, id: string): Promise<void> {
  await deleteRanked(executor, 'rules', namespaceKey, flagKey, id);
}

export async function orderRules(executor: Executor, input: OrderRulesInput): Promise<void> {
  await orderByIds(executor, 'rules', input.namespaceKey, input.flagKey, input.ruleIds);
}

/** Flipt checks only that the rule, the variant and the flag each exist in the namespace. */
async function requireDistributionParts(executor: Executor, input: CreateDistributionInput): Promise<void> {
  const { namespaceKey, flagKey, ruleId, variantId } = input;
  const [rule, variant] = await Promise.all([
    findRule(executor, namespaceKey, flagKey, ruleId),
    executor.db
      .selectFrom('variants')
      .select('id')
      .where('id', '=', variantId)
      .where('namespace_key', '=', namespaceKey)
      .executeTakeFirst(),
  ]);
  if (!rule || !variant) {
    throw notFound(`variant "${variantId}", rule "${ruleId}", flag "${flagKey}" in namespace "${namespaceKey}"`);
  }
}

export function distributionRow(input: CreateDistributionInput, now: string): DistributionsTable {
  return {
    id: randomUUID(),
    rule_id: input.ruleId,
    variant_id: input.variantId,
    rollout: input.rollout,
    created_at: now,
    updated_at: now,
  };
}

export async function createDistribution(executor: Executor, input: CreateDistributionInput): Promise<Distribution> {
  await requireDistributionParts(executor, input);
  const row = distributionRow(input, nowTimestamp());
  await executor.db.insertInto('distributions').values(row).execute();
  return distributionFromRow(row);
}

export async function updateDistribution(executor: Executor, input: UpdateDistributionInput): Promise<Distribution> {
  const row = await executor.db
    .selectFrom('distributions')
    .selectAll()
    .where('id', '=', input.id)
    .where('rule_id', '=', input.ruleId)
    .executeTakeFirst();
  if (!row) throw notFound(`distribution "${input.id}"`);
  await requireDistributionParts(executor, input);
  const changed = { variant_id: input.variantId, rollout: input.rollout, updated_at: nowTimestamp() };
  await executor.db.updateTable('distributions').set(changed).where('id', '=', input.id).execute();
  return distributionFromRow({ ...row, ...changed });
}

/** Idempotent; only a distribution of a rule of this flag. */
export async function deleteDistribution(executor: Executor, input: DeleteDistributionInput): Promise<void> {
  if (!(await findRule(executor, input.namespaceKey, input.flagKey, input.ruleId))) return;
  await executor.db
    .deleteFrom('distributions')
    .where('id', '=', input.id)
    .where('rule_id', '=', input.ruleId)
    .where('variant_id', '=', input.variantId)
    .execute();
}
