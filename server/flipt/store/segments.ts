import { randomUUID } from 'node:crypto';
import type { ComparisonType, Constraint, MatchType, Segment, SegmentList } from '../../../domain/flipt/types.js';
import type {
  CreateConstraintInput,
  CreateSegmentInput,
  ListInput,
  UpdateConstraintInput,
  UpdateSegmentInput,
} from '../../../domain/flipt/schemas.js';
import type { ConstraintsTable, SegmentsTable } from '../../db/schema.js';
import { nowTimestamp } from '../../db/codec.js';
import { formatTimestamp } from '../timestamps.js';
import { invalid, notFound } from '../errors.js';
import type { Executor } from '../../db/executor.js';
import { childrenByParent } from './children.js';
import { refuseIfSurveysLink } from './survey-links.js';
import { namespacePage, pageWindow } from './pagination.js';
import { requireNamespace } from './namespaces.js';

function constraintFromRow(row: ConstraintsTable): Constraint {
  return {
    id: row.id,
    segmentKey: row.segment_key,
    type: row.type as ComparisonType,
    property: row.property,
    operator: row.operator,
    value: row.value,
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
    namespaceKey: row.namespace_key,
    description: row.description,
  };
}

function segmentFromRow(row: SegmentsTable, constraints: ConstraintsTable[]): Segment {
  return {
    key: row.key,
    name: row.name,
    description: row.description,
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
    constraints: constraints.map(constraintFromRow),
    matchType: row.match_type as MatchType,
    namespaceKey: row.namespace_key,
  };
}

function constraintsOf(
  executor: Executor,
  namespaceKey: string,
  segmentKeys: string[],
): Promise<Map<string, ConstraintsTable[]>> {
  return childrenByParent(executor, 'constraints', namespaceKey, segmentKeys);
}

export async function listSegments(executor: Executor, namespaceKey: string, page: ListInput): Promise<SegmentList> {
  const result = await namespacePage(executor, 'segments', namespaceKey, pageWindow(page, { requireLimit: true }));
  const constraints = await constraintsOf(
    executor,
    namespaceKey,
    result.rows.map((row) => row.key),
  );
  return {
    segments: result.rows.map((row) => segmentFromRow(row, constraints.get(row.key) ?? [])),
    nextPageToken: result.nextPageToken,
    totalCount: result.totalCount,
  };
}

export async function findSegment(
  { db }: Executor,
  namespaceKey: string,
  key: string,
): Promise<SegmentsTable | undefined> {
  return db
    .selectFrom('segments')
    .selectAll()
    .where('namespace_key', '=', namespaceKey)
    .where('key', '=', key)
    .executeTakeFirst();
}

async function requireSegment(executor: Executor, namespaceKey: string, key: string): Promise<SegmentsTable> {
  const row = await findSegment(executor, namespaceKey, key);
  if (!row) throw notFound(`segment "${namespaceKey}/${key}"`);
  return row;
}

export async function getSegment(executor: Executor, namespaceKey: string, key: string): Promise<Segment> {
  const segment = await segmentIfAny(executor, namespaceKey, key);
  if (!segment) throw notFound(`segment "${namespaceKey}/${key}"`);
  return segment;
}

export async function segmentIfAny(
  executor: Executor,
  namespaceKey: string,
  key: string,
): Promise<Segment | undefined> {
  const row = await findSegment(executor, namespaceKey, key);
  if (!row) return undefined;
  const constraints = await constraintsOf(executor, namespaceKey, [key]);
  return segmentFromRow(row, constraints.get(key) ?? []);
}

/** The first of the keys with no segment in the namespace, if any. */
export async function firstMissingSegment(
  { db }: Executor,
  namespaceKey: string,
  keys: string[],
): Promise<string | undefined> {
  const found = await db
    .selectFrom('segments')
    .select('key')
    .where('namespace_key', '=', namespaceKey)
    .where('key', 'in', keys)
    .execute();
  const existing = new Set(found.map((row) => row.key));
  return keys.find((key) => !existing.has(key));
}

export const notUniqueSegment = (namespaceKey: string, key: string) =>
  invalid(`segment "${namespaceKey}/${key}" is not unique`);

export function segmentRow(input: CreateSegmentInput, now: string): SegmentsTable {
  return {
    namespace_key: input.namespaceKey,
    key: input.key,
    name: input.name,
    description: input.description,
    match_type: input.matchType,
    created_at: now,
    updated_at: now,
  };
}

export async function createSegment(executor: Executor, input: CreateSegmentInput): Promise<Segment> {
  await requireNamespace(executor, input.namespaceKey);
  if (await findSegment(executor, input.namespaceKey, input.key)) throw notUniqueSegment(input.namespaceKey, input.key);
  const row = segmentRow(input, nowTimestamp());
  await executor.db.insertInto('segments').values(row).execute();
  return segmentFromRow(row, []);
}

export async function updateSegment(executor: Executor, input: UpdateSegmentInput): Promise<Segment> {
  const row = await requireSegment(executor, input.namespaceKey, input.key);
  const changed = {
    name: input.name,
    description: input.description,
    match_type: input.matchType,
    updated_at: nowTimestamp(),
  };
  await executor.db
    .updateTable('segments')
    .set(changed)
    .where('namespace_key', '=', input.namespaceKey)
    .where('key', '=', input.key)
    .execute();
  const constraints = await constraintsOf(executor, input.namespaceKey, [input.key]);
  return segmentFromRow({ ...row, ...changed }, constraints.get(input.key) ?? []);
}

/** Idempotent; refused while a rule or rollout uses the segment (Flipt v1.51 and later); constraints go with it. */
export async function deleteSegment(executor: Executor, namespaceKey: string, key: string): Promise<void> {
  const { db } = executor;
  const [rule, rollout] = await Promise.all([
    db
      .selectFrom('rule_segments')
      .select('rule_id')
      .where('namespace_key', '=', namespaceKey)
      .where('segment_key', '=', key)
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('rollout_segment_references')
      .select('rollout_id')
      .where('namespace_key', '=', namespaceKey)
      .where('segment_key', '=', key)
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (rule || rollout) throw invalid(`segment "${namespaceKey}/${key}" is in use`);
  await refuseIfSurveysLink(executor, namespaceKey, { segmentKey: key });
  await db.deleteFrom('segments').where('namespace_key', '=', namespaceKey).where('key', '=', key).execute();
}

/** The row of a new constraint, with a new id. */
export function constraintRow(input: CreateConstraintInput, now: string): ConstraintsTable {
  return {
    id: randomUUID(),
    namespace_key: input.namespaceKey,
    segment_key: input.segmentKey,
    type: input.type,
    property: input.property,
    operator: input.operator,
    value: input.value,
    description: input.description,
    created_at: now,
    updated_at: now,
  };
}

export async function createConstraint(executor: Executor, input: CreateConstraintInput): Promise<Constraint> {
  await requireSegment(executor, input.namespaceKey, input.segmentKey);
  const row = constraintRow(input, nowTimestamp());
  await executor.db.insertInto('constraints').values(row).execute();
  return constraintFromRow(row);
}

export async function updateConstraint(executor: Executor, input: UpdateConstraintInput): Promise<Constraint> {
  const row = await executor.db
    .selectFrom('constraints')
    .selectAll()
    .where('id', '=', input.id)
    .where('namespace_key', '=', input.namespaceKey)
    .where('segment_key', '=', input.segmentKey)
    .executeTakeFirst();
  if (!row) throw notFound(`constraint "${input.id}"`);
  const changed = {
    type: input.type,
    property: input.property,
    operator: input.operator,
    value: input.value,
    description: input.description,
    updated_at: nowTimestamp(),
  };
  await executor.db.updateTable('constraints').set(changed).where('id', '=', input.id).execute();
  return constraintFromRow({ ...row, ...changed });
}

export async function deleteConstraint(
  executor: Executor,
  namespaceKey: string,
  segmentKey: string,
  id: string,
): Promise<void> {
  await executor.db
    .deleteFrom('constraints')
    .where('id', '=', id)
    .where('namespace_key', '=', namespaceKey)
    .where('segment_key', '=', segmentKey)
    .execute();
}
