import { randomUUID } from 'node:crypto';
import type { Rollout, RolloutList, RolloutType, SegmentOperator } from '../../../domain/flipt/types.js';
import type {
  CreateRolloutInput,
  ListInput,
  OrderRolloutsInput,
  UpdateRolloutInput,
} from '../../../domain/flipt/schemas.js';
import type { RolloutSegmentsTable, RolloutThresholdsTable, RolloutsTable } from '../../db/schema.js';
import { type Dialect, fromBool, nowTimestamp, toBool } from '../../db/codec.js';
import { formatTimestamp } from '../timestamps.js';
import { invalid, notFound } from '../errors.js';
import type { Executor } from '../../db/executor.js';
import { flagPage, pageWindow } from './pagination.js';
import { requireFlag } from './flags.js';
import { firstMissingSegment } from './segments.js';
import { deleteRanked, orderByIds } from './ranks.js';
import { insertSegmentKeys, segmentKeysOf } from './references.js';
import { effectiveOperator, segmentReference } from './rules.js';
import { rankedByFlag } from './children.js';

type RolloutBody = Pick<CreateRolloutInput, 'segment' | 'threshold'>;

async function rolloutsFromRows(executor: Executor, rows: RolloutsTable[]): Promise<Rollout[]> {
  if (rows.length === 0) return [];
  const { db } = executor;
  const ids = rows.map((row) => row.id);
  const [thresholds, segments, references] = await Promise.all([
    db.selectFrom('rollout_thresholds').selectAll().where('rollout_id', 'in', ids).execute(),
    db.selectFrom('rollout_segments').selectAll().where('rollout_id', 'in', ids).execute(),
    segmentKeysOf(executor, 'rollouts', ids),
  ]);
  return rows.map((row) => {
    const rollout: Rollout = {
      id: row.id,
      namespaceKey: row.namespace_key,
      flagKey: row.flag_key,
      type: row.type as RolloutType,
      rank: row.rank,
      description: row.description,
      createdAt: formatTimestamp(row.created_at),
      updatedAt: formatTimestamp(row.updated_at),
    };
    const threshold = thresholds.find((t) => t.rollout_id === row.id);
    if (threshold) rollout.threshold = { percentage: Number(threshold.percentage), value: toBool(threshold.value) };
    const segment = segments.find((s) => s.rollout_id === row.id);
    if (segment) {
      const { segmentKey, segmentKeys } = segmentReference(references.get(row.id) ?? []);
      rollout.segment = {
        segmentKey,
        value: toBool(segment.value),
        segmentKeys,
        segmentOperator: segment.segment_operator as SegmentOperator,
      };
    }
    return rollout;
  });
}

export async function listRollouts(
  executor: Executor,
  namespaceKey: string,
  flagKey: string,
  page: ListInput,
): Promise<RolloutList> {
  const result = await flagPage(
    executor,
    'rollouts',
    namespaceKey,
    flagKey,
    pageWindow({ ...page, offset: 0 }, { requireLimit: false }),
  );
  return {
    rules: await rolloutsFromRows(executor, result.rows),
    nextPageToken: result.nextPageToken,
    totalCount: result.totalCount,
  };
}

/** The rollouts of each of the given flags, by rank, by flag key (every key gets an entry). */
export function rolloutsOfFlags(
  executor: Executor,
  namespaceKey: string,
  flagKeys: string[],
): Promise<Map<string, Rollout[]>> {
  return rankedByFlag(executor, 'rollouts', namespaceKey, flagKeys, rolloutsFromRows);
}

async function requireRollout(
  { db }: Executor,
  namespaceKey: string,
  flagKey: string,
  id: string,
): Promise<RolloutsTable> {
  const row = await db
    .selectFrom('rollouts')
    .selectAll()
    .where('id', '=', id)
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .executeTakeFirst();
  if (!row) throw notFound(`rollout "${namespaceKey}/${id}"`);
  return row;
}

export async function getRollout(
  executor: Executor,
  namespaceKey: string,
  flagKey: string,
  id: string,
): Promise<Rollout> {
  const [rollout] = await rolloutsFromRows(executor, [await requireRollout(executor, namespaceKey, flagKey, id)]);
  return rollout;
}

/** The row of a new rollout, with a new id (its threshold or segment rows are written apart). */
export function rolloutRow(input: CreateRolloutInput, now: string): RolloutsTable {
  return {
    id: randomUUID(),
    namespace_key: input.namespaceKey,
    flag_key: input.flagKey,
    type: rolloutType(input),
    rank: input.rank,
    description: input.description,
    created_at: now,
    updated_at: now,
  };
}

function rolloutType(body: RolloutBody): RolloutType {
  if (body.segment) return 'SEGMENT_ROLLOUT_TYPE';
  if (body.threshold) return 'THRESHOLD_ROLLOUT_TYPE';
  throw invalid('rollout rule is missing');
}

export const missingRolloutSegment = (namespaceKey: string, key: string) =>
  notFound(`segment "${namespaceKey}/${key}"`);

export function thresholdRow(
  dialect: Dialect,
  id: string,
  threshold: NonNullable<RolloutBody['threshold']>,
): RolloutThresholdsTable {
  return { rollout_id: id, percentage: threshold.percentage, value: fromBool(dialect, threshold.value) };
}

export function rolloutSegmentRow(
  dialect: Dialect,
  id: string,
  segment: NonNullable<RolloutBody['segment']>,
): RolloutSegmentsTable {
  return {
    rollout_id: id,
    value: fromBool(dialect, segment.value),
    segment_operator: effectiveOperator(segment.segments, segment.segmentOperator),
  };
}

/** Writes the threshold or segment rows of a rollout (after removing any it had). */
async function writeRolloutRule(
  executor: Executor,
  id: string,
  namespaceKey: string,
  body: RolloutBody,
): Promise<void> {
  const { db, dialect } = executor;
  await db.deleteFrom('rollout_thresholds').where('rollout_id', '=', id).execute();
  await db.deleteFrom('rollout_segments').where('rollout_id', '=', id).execute();
  if (body.threshold) {
    await db
      .insertInto('rollout_thresholds')
      .values(thresholdRow(dialect, id, body.threshold))
      .execute();
    return;
  }
  const segment = body.segment!;
  const missing = await firstMissingSegment(executor, namespaceKey, segment.segments);
  if (missing !== undefined) throw missingRolloutSegment(namespaceKey, missing);
  await db
    .insertInto('rollout_segments')
    .values(rolloutSegmentRow(dialect, id, segment))
    .execute();
  await insertSegmentKeys(executor, 'rollouts', id, namespaceKey, segment.segments);
}

export async function createRollout(executor: Executor, input: CreateRolloutInput): Promise<Rollout> {
  const { namespaceKey, flagKey } = input;
  await requireFlag(executor, namespaceKey, flagKey);
  rolloutType(input); // a body with neither a threshold nor a segment is refused before any query
  const taken = await executor.db
    .selectFrom('rollouts')
    .select('id')
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .where('rank', '=', input.rank)
    .executeTakeFirst();
  if (taken) throw invalid(`rank number: ${input.rank} already exists`);
  const row = rolloutRow(input, nowTimestamp());
  await executor.db.insertInto('rollouts').values(row).execute();
  await writeRolloutRule(executor, row.id, namespaceKey, input);
  const [rollout] = await rolloutsFromRows(executor, [row]);
  return rollout;
}

/** Replaces the description and the rule body; the type and rank stay. */
export async function updateRollout(executor: Executor, input: UpdateRolloutInput): Promise<Rollout> {
  const { namespaceKey, flagKey, id } = input;
  const row = await requireRollout(executor, namespaceKey, flagKey, id);
  const type = rolloutType(input);
  if (type !== row.type) throw invalid(`cannot change type of rollout: have "${row.type}" attempted "${type}"`);
  const changed = { description: input.description, updated_at: nowTimestamp() };
  await executor.db.updateTable('rollouts').set(changed).where('id', '=', id).execute();
  await writeRolloutRule(executor, id, namespaceKey, input);
  const [rollout] = await rolloutsFromRows(executor, [{ ...row, ...changed }]);
  return rollout;
}

/** Idempotent; the remaining rollouts are ranked 1..n again. */
export async function deleteRollout(
  executor: Executor,
  namespaceKey: string,
  flagKey: string,
  id: string,
): Promise<void> {
  await deleteRanked(executor, 'rollouts', namespaceKey, flagKey, id);
}

export async function orderRollouts(executor: Executor, input: OrderRolloutsInput): Promise<void> {
  await orderByIds(executor, 'rollouts', input.namespaceKey, input.flagKey, input.rolloutIds);
}
