import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComparisonType, Constraint, MatchType, Segment, SegmentList } from '../../../domain/flipt/types';
import { API, request } from '../../api/client';
import { usePagedList } from '../../api/pagedList';
import { segmentKeys } from './keys';

const enc = encodeURIComponent;
export const segmentsPath = (namespaceKey: string) => `${API}/namespaces/${enc(namespaceKey)}/segments`;
export const segmentPath = (namespaceKey: string, segmentKey: string) =>
  `${segmentsPath(namespaceKey)}/${enc(segmentKey)}`;

const segmentsOf = (list: SegmentList) => list.segments;

/**
 * The namespace's segments, the first page at once and the rest in the background (see
 * usePagedList); `data.segments` holds those fetched so far.
 */
export function useSegments(namespaceKey: string) {
  const list = usePagedList(segmentKeys.list(namespaceKey), segmentsPath(namespaceKey), segmentsOf);
  return { ...list, data: list.items && { segments: list.items } };
}

export function useSegment(namespaceKey: string, segmentKey: string) {
  return useQuery({
    queryKey: segmentKeys.detail(namespaceKey, segmentKey),
    queryFn: () => request<Segment>('GET', segmentPath(namespaceKey, segmentKey)),
  });
}

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
    await request<Constraint>('POST', `${segmentPath(to.namespaceKey, key)}/constraints`, constraintValues(constraint));
  }
  return created;
}

export function useSegmentMutations(namespaceKey: string) {
  const client = useQueryClient();
  const invalidate = (segmentKey: string) =>
    Promise.all([
      client.invalidateQueries({ queryKey: segmentKeys.list(namespaceKey) }),
      client.invalidateQueries({ queryKey: segmentKeys.detail(namespaceKey, segmentKey) }),
    ]);
  return {
    create: useMutation({
      mutationFn: (values: SegmentValues) => request<Segment>('POST', segmentsPath(namespaceKey), values),
      onSuccess: (segment) => invalidate(segment.key),
    }),
    update: useMutation({
      mutationFn: ({ key, name, description, matchType }: SegmentValues) =>
        request<Segment>('PUT', segmentPath(namespaceKey, key), { name, description, matchType }),
      onSuccess: (_segment, { key }) => invalidate(key),
    }),
    remove: useMutation({
      mutationFn: (segmentKey: string) => request<void>('DELETE', segmentPath(namespaceKey, segmentKey)),
      onSuccess: (_data, segmentKey) => invalidate(segmentKey),
    }),
    copy: useMutation({
      mutationFn: ({ segmentKey, to }: { segmentKey: string; to: { namespaceKey: string; segmentKey?: string } }) =>
        copySegment({ namespaceKey, segmentKey }, to),
      onSuccess: (_segment, { to }) => client.invalidateQueries({ queryKey: segmentKeys.list(to.namespaceKey) }),
    }),
    saveConstraint: useMutation({
      mutationFn: ({ segmentKey, id, values }: { segmentKey: string; id?: string; values: ConstraintValues }) =>
        id
          ? request<Constraint>('PUT', `${segmentPath(namespaceKey, segmentKey)}/constraints/${enc(id)}`, values)
          : request<Constraint>('POST', `${segmentPath(namespaceKey, segmentKey)}/constraints`, values),
      onSuccess: (_constraint, { segmentKey }) => invalidate(segmentKey),
    }),
    removeConstraint: useMutation({
      mutationFn: ({ segmentKey, id }: { segmentKey: string; id: string }) =>
        request<void>('DELETE', `${segmentPath(namespaceKey, segmentKey)}/constraints/${enc(id)}`),
      onSuccess: (_data, { segmentKey }) => invalidate(segmentKey),
    }),
  };
}
