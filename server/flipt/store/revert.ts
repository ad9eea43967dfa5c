import type { EntityState, FlagState, HistoryEntry } from '../../../domain/flipt/history.js';
import type { Namespace, Segment } from '../../../domain/flipt/types.js';
import { fromBool } from '../../db/codec.js';
import { FliptError, GrpcCode } from '../errors.js';
import { storedTimestamp } from '../timestamps.js';
import { type ImportRows, emptyImportRows, insertImportRows } from './bulk.js';
import type { Executor } from '../../db/executor.js';
import { findNamespace } from './namespaces.js';
import { segmentKeyRows } from './references.js';
import { firstMissingSegment } from './segments.js';

/**
 * Reverting an entry restores its entity to the state before it (a create is undone by a delete, a
 * delete by recreating what was deleted), ids and all, as one new change.
 */
export const revertTarget = (entry: HistoryEntry): EntityState | null => entry.before;

/** Why the entity cannot be brought back to `target` now, or undefined when it can. */
export async function revertRefusal(
  executor: Executor,
  entry: HistoryEntry,
  current: EntityState | undefined,
): Promise<string | undefined> {
  const target = revertTarget(entry);
  const { namespaceKey } = entry;
  if (entry.entityType === 'namespace') {
    if (entry.before === null || entry.after === null)
      return "only a change of a namespace's name or description can be reverted (not its creation, deletion or an import)";
    if (!current) return `namespace "${namespaceKey}" no longer exists`;
    return undefined;
  }
  if (!(await findNamespace(executor, namespaceKey))) return `namespace "${namespaceKey}" no longer exists`;
  if (entry.entityType === 'segment') {
    if (target !== null || !current) return undefined;
    const user = await executor.db
      .selectFrom('rule_segments')
      .select('rule_id')
      .where('namespace_key', '=', namespaceKey)
      .where('segment_key', '=', entry.entityKey)
      .union(
        executor.db
          .selectFrom('rollout_segment_references')
          .select('rollout_id as rule_id')
          .where('namespace_key', '=', namespaceKey)
          .where('segment_key', '=', entry.entityKey),
      )
      .executeTakeFirst();
    return user ? `segment "${entry.entityKey}" is used by a rule or rollout, so it cannot be deleted` : undefined;
  }
  if (target === null) return undefined;
  const state = target as FlagState;
  if (current && (current as FlagState).flag.type !== state.flag.type)
    return `flag "${entry.entityKey}" is now of another type (${(current as FlagState).flag.type})`;
  const needed = [
    ...state.rules.flatMap((rule) => (rule.segmentKey ? [rule.segmentKey] : rule.segmentKeys)),
    ...state.rollouts.flatMap((rollout) =>
      rollout.segment ? (rollout.segment.segmentKey ? [rollout.segment.segmentKey] : rollout.segment.segmentKeys) : [],
    ),
  ];
  const missing = needed.length ? await firstMissingSegment(executor, namespaceKey, [...new Set(needed)]) : undefined;
  if (missing !== undefined) return `segment "${missing}", which the flag's rules or rollouts use, was deleted`;
  return undefined;
}

/** The entity a history entry or a write is about. */
type Entity = Pick<HistoryEntry, 'entityType' | 'namespaceKey' | 'entityKey'>;

/** Writes `target` over the entity's current rows, ids and all (for a revert, the caller has checked `revertRefusal`). */
export async function restore(
  executor: Executor,
  entry: Entity,
  target: EntityState | null,
  current: EntityState | undefined,
): Promise<void> {
  const { db } = executor;
  const { namespaceKey, entityKey } = entry;
  if (entry.entityType === 'namespace') {
    const namespace = target as Namespace;
    await db
      .updateTable('namespaces')
      .set({ name: namespace.name, description: namespace.description })
      .where('key', '=', entityKey)
      .execute();
    return;
  }
  if (entry.entityType === 'segment') {
    if (target === null) {
      await db.deleteFrom('segments').where('namespace_key', '=', namespaceKey).where('key', '=', entityKey).execute();
      return;
    }
    const segment = target as Segment;
    if (current) {
      await db
        .deleteFrom('constraints')
        .where('namespace_key', '=', namespaceKey)
        .where('segment_key', '=', entityKey)
        .execute();
      await db
        .updateTable('segments')
        .set({ name: segment.name, description: segment.description, match_type: segment.matchType })
        .where('namespace_key', '=', namespaceKey)
        .where('key', '=', entityKey)
        .execute();
    }
    await insertImportRows(executor, segmentRows(segment, !current), new Set());
    return;
  }
  if (current) {
    // Rules and rollouts first (their distributions and segment references go with them), then the variants.
    await db.deleteFrom('rules').where('namespace_key', '=', namespaceKey).where('flag_key', '=', entityKey).execute();
    await db
      .deleteFrom('rollouts')
      .where('namespace_key', '=', namespaceKey)
      .where('flag_key', '=', entityKey)
      .execute();
    await db
      .updateTable('flags')
      .set({ default_variant_id: null })
      .where('namespace_key', '=', namespaceKey)
      .where('key', '=', entityKey)
      .execute();
    await db
      .deleteFrom('variants')
      .where('namespace_key', '=', namespaceKey)
      .where('flag_key', '=', entityKey)
      .execute();
  }
  if (target === null) {
    await db.deleteFrom('flags').where('namespace_key', '=', namespaceKey).where('key', '=', entityKey).execute();
    return;
  }
  const { flag } = target as FlagState;
  if (current) {
    await db
      .updateTable('flags')
      .set({
        name: flag.name,
        description: flag.description,
        enabled: fromBool(executor.dialect, flag.enabled),
        metadata: flag.metadata && Object.keys(flag.metadata).length ? JSON.stringify(flag.metadata) : null,
      })
      .where('namespace_key', '=', namespaceKey)
      .where('key', '=', entityKey)
      .execute();
  }
  await insertImportRows(executor, flagRows(executor, target as FlagState, !current), new Set());
  if (current && flag.defaultVariant) {
    await db
      .updateTable('flags')
      .set({ default_variant_id: flag.defaultVariant.id })
      .where('namespace_key', '=', namespaceKey)
      .where('key', '=', entityKey)
      .execute();
  }
}

function segmentRows(segment: Segment, withSegment: boolean): ImportRows {
  const rows = emptyImportRows();
  if (withSegment) {
    rows.segments.push({
      namespace_key: segment.namespaceKey,
      key: segment.key,
      name: segment.name,
      description: segment.description,
      match_type: segment.matchType,
      created_at: storedTimestamp(segment.createdAt),
      updated_at: storedTimestamp(segment.updatedAt),
    });
  }
  for (const constraint of segment.constraints) {
    rows.constraints.push({
      id: constraint.id,
      namespace_key: constraint.namespaceKey,
      segment_key: constraint.segmentKey,
      type: constraint.type,
      property: constraint.property,
      operator: constraint.operator,
      value: constraint.value,
      description: constraint.description,
      created_at: storedTimestamp(constraint.createdAt),
      updated_at: storedTimestamp(constraint.updatedAt),
    });
  }
  return rows;
}

function flagRows({ dialect }: Executor, { flag, rules, rollouts }: FlagState, withFlag: boolean): ImportRows {
  const rows = emptyImportRows();
  const namespaceKey = flag.namespaceKey;
  if (withFlag) {
    rows.flags.push({
      namespace_key: namespaceKey,
      key: flag.key,
      name: flag.name,
      description: flag.description,
      enabled: fromBool(dialect, flag.enabled),
      type: flag.type,
      default_variant_id: null,
      metadata: flag.metadata && Object.keys(flag.metadata).length ? JSON.stringify(flag.metadata) : null,
      created_at: storedTimestamp(flag.createdAt),
      updated_at: storedTimestamp(flag.updatedAt),
    });
  }
  for (const variant of flag.variants) {
    rows.variants.push({
      id: variant.id,
      namespace_key: namespaceKey,
      flag_key: flag.key,
      key: variant.key,
      name: variant.name,
      description: variant.description,
      attachment: variant.attachment,
      created_at: storedTimestamp(variant.createdAt),
      updated_at: storedTimestamp(variant.updatedAt),
    });
  }
  for (const rule of rules) {
    rows.rules.push({
      id: rule.id,
      namespace_key: namespaceKey,
      flag_key: flag.key,
      rank: rule.rank,
      segment_operator: rule.segmentOperator,
      created_at: storedTimestamp(rule.createdAt),
      updated_at: storedTimestamp(rule.updatedAt),
    });
    rows.rule_segments.push(
      ...segmentKeyRows('rules', rule.id, namespaceKey, rule.segmentKey ? [rule.segmentKey] : rule.segmentKeys),
    );
    for (const distribution of rule.distributions) {
      rows.distributions.push({
        id: distribution.id,
        rule_id: rule.id,
        variant_id: distribution.variantId,
        rollout: distribution.rollout,
        created_at: storedTimestamp(distribution.createdAt),
        updated_at: storedTimestamp(distribution.updatedAt),
      });
    }
  }
  for (const rollout of rollouts) {
    rows.rollouts.push({
      id: rollout.id,
      namespace_key: namespaceKey,
      flag_key: flag.key,
      type: rollout.type,
      rank: rollout.rank,
      description: rollout.description,
      created_at: storedTimestamp(rollout.createdAt),
      updated_at: storedTimestamp(rollout.updatedAt),
    });
    if (rollout.threshold) {
      rows.rollout_thresholds.push({
        rollout_id: rollout.id,
        percentage: rollout.threshold.percentage,
        value: fromBool(dialect, rollout.threshold.value),
      });
    }
    if (rollout.segment) {
      const { segment } = rollout;
      rows.rollout_segments.push({
        rollout_id: rollout.id,
        value: fromBool(dialect, segment.value),
        segment_operator: segment.segmentOperator,
      });
      rows.rollout_segment_references.push(
        ...segmentKeyRows(
          'rollouts',
          rollout.id,
          namespaceKey,
          segment.segmentKey ? [segment.segmentKey] : segment.segmentKeys,
        ),
      );
    }
  }
  if (withFlag && flag.defaultVariant) rows.flags[0].default_variant_id = flag.defaultVariant.id;
  return rows;
}

export const revertRefused = (reason: string) =>
  new FliptError(GrpcCode.FailedPrecondition, `cannot revert: ${reason}`);
