/**
 * The segments feature's API, in the shape of the flags feature's (see flags/api.ts): request functions,
 * query keys led by the git ref, `queryOptions` factories, and one small hook per mutation whose promise
 * settles once the queries it invalidates are fetched again.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ComparisonType, Constraint, MatchType, Segment, SegmentList } from '../../../domain/flipt/types';
import { API, request } from '../../api/client';
import { useCurrentRef } from '../../api/currentRef';
import { useInvalidatingMutation } from '../../api/mutation';
import { usePagedList } from '../../api/pagedList';

const enc = encodeURIComponent;
export const segmentsPath = (namespaceKey: string) => `${API}/namespaces/${enc(namespaceKey)}/segments`;
export const segmentPath = (namespaceKey: string, segmentKey: string) =>
  `${segmentsPath(namespaceKey)}/${enc(segmentKey)}`;
const constraintsPath = (namespaceKey: string, segmentKey: string) =>
  `${segmentPath(namespaceKey, segmentKey)}/constraints`;

export const segmentKeys = {
  namespace: (ref: string, namespaceKey: string) => [ref, 'segments', namespaceKey] as const,
  list: (ref: string, namespaceKey: string) => [...segmentKeys.namespace(ref, namespaceKey), 'list'] as const,
  detail: (ref: string, namespaceKey: string, segmentKey: string) =>
    [...segmentKeys.namespace(ref, namespaceKey), 'detail', segmentKey] as const,
};

export interface SegmentValues {
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
}

export interface ConstraintValues {
  property: string;
  type: ComparisonType;
  operator: string;
  value: string;
  description: string;
}

export const constraintValues = ({
  property,
  type,
  operator,
  value,
  description,
}: ConstraintValues): ConstraintValues => ({
  property,
  type,
  operator,
  value,
  description,
});

/**
 * Copies a segment: GET the source, POST it to the target namespace (optionally with a
 * new key), then POST each constraint. Stops at the first failing step and throws its error.
 */
export async function copySegment(
  from: { namespaceKey: string; segmentKey: string },
  to: { namespaceKey: string; segmentKey?: string },
): Promise<Segment> {
  const source = await request<Segment>('GET', segmentPath(from.namespaceKey, from.segmentKey));
  const key = to.segmentKey || source.key;
  const { name, description, matchType } = source;
  const created = await request<Segment>('POST', segmentsPath(to.namespaceKey), { key, name, description, matchType });
  for (const constraint of source.constraints) {
    await request<Constraint>('POST', constraintsPath(to.namespaceKey, key), constraintValues(constraint));
  }
  return created;
}

export const createSegment = (namespaceKey: string, values: SegmentValues) =>
  request<Segment>('POST', segmentsPath(namespaceKey), values);

export const updateSegment = (namespaceKey: string, { key, name, description, matchType }: SegmentValues) =>
  request<Segment>('PUT', segmentPath(namespaceKey, key), { name, description, matchType });

export const deleteSegment = (namespaceKey: string, segmentKey: string) =>
  request<void>('DELETE', segmentPath(namespaceKey, segmentKey));

/** Creates a constraint (no `id`) or updates one. */
export const saveConstraint = (
  namespaceKey: string,
  { segmentKey, id, values }: { segmentKey: string; id?: string; values: ConstraintValues },
) =>
  id
    ? request<Constraint>('PUT', `${constraintsPath(namespaceKey, segmentKey)}/${enc(id)}`, values)
    : request<Constraint>('POST', constraintsPath(namespaceKey, segmentKey), values);

export const deleteConstraint = (namespaceKey: string, { segmentKey, id }: { segmentKey: string; id: string }) =>
  request<void>('DELETE', `${constraintsPath(namespaceKey, segmentKey)}/${enc(id)}`);

const segmentsOf = (list: SegmentList) => list.segments;

/**
 * The namespace's segments, the first page at once and the rest in the background (see
 * usePagedList); `data.segments` holds those fetched so far.
 */
export function useSegments(namespaceKey: string) {
  const list = usePagedList(segmentKeys.list(useCurrentRef(), namespaceKey), segmentsPath(namespaceKey), segmentsOf);
  return { ...list, data: list.items && { segments: list.items } };
}

export const segmentQuery = (ref: string, namespaceKey: string, segmentKey: string) =>
  queryOptions({
    queryKey: segmentKeys.detail(ref, namespaceKey, segmentKey),
    queryFn: () => request<Segment>('GET', segmentPath(namespaceKey, segmentKey)),
  });

export const useSegment = (namespaceKey: string, segmentKey: string) =>
  useQuery(segmentQuery(useCurrentRef(), namespaceKey, segmentKey));

/** A mutation of one segment: on success the namespace's segment list and the segment's entry are refetched. */
function useSegmentMutation<I, O>(
  namespaceKey: string,
  mutationFn: (input: I) => Promise<O>,
  changedSegmentKey: (input: I, output: O) => string,
) {
  return useInvalidatingMutation(mutationFn, (ref, input, output: O) => [
    segmentKeys.list(ref, namespaceKey),
    segmentKeys.detail(ref, namespaceKey, changedSegmentKey(input, output)),
  ]);
}

export const useCreateSegment = (namespaceKey: string) =>
  useSegmentMutation(
    namespaceKey,
    (values: SegmentValues) => createSegment(namespaceKey, values),
    (_values, segment) => segment.key,
  );

export const useUpdateSegment = (namespaceKey: string) =>
  useSegmentMutation(
    namespaceKey,
    (values: SegmentValues) => updateSegment(namespaceKey, values),
    (values) => values.key,
  );

export const useDeleteSegment = (namespaceKey: string) =>
  useSegmentMutation(
    namespaceKey,
    (segmentKey: string) => deleteSegment(namespaceKey, segmentKey),
    (segmentKey) => segmentKey,
  );

export const useSaveConstraint = (namespaceKey: string) =>
  useSegmentMutation(
    namespaceKey,
    (input: Parameters<typeof saveConstraint>[1]) => saveConstraint(namespaceKey, input),
    (input) => input.segmentKey,
  );

export const useDeleteConstraint = (namespaceKey: string) =>
  useSegmentMutation(
    namespaceKey,
    (input: Parameters<typeof deleteConstraint>[1]) => deleteConstraint(namespaceKey, input),
    (input) => input.segmentKey,
  );

/** Copies a segment of the namespace to another; the target namespace's segment list is refetched. */
export const useCopySegment = (namespaceKey: string) =>
  useInvalidatingMutation(
    ({ segmentKey, to }: { segmentKey: string; to: { namespaceKey: string; segmentKey?: string } }) =>
      copySegment({ namespaceKey, segmentKey }, to),
    (ref, { to }) => [segmentKeys.list(ref, to.namespaceKey)],
  );
