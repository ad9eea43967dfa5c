/** A flag's evaluation counts (the Analytics tab), in the shape of flags/api.ts. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { INTERNAL, request } from '../../../api/client';
import { TIMESTAMP_FORMAT } from '../../../lib/time';
import { useCurrentRef } from '../../../api/currentRef';
import { flagKeys } from '../api';

/** `GET internal/v1/analytics/...`: parallel arrays, one count per bucket. */
export interface FlagSeries {
  timestamps: string[];
  values: number[];
}

/**
 * `from` and `to` (UTC, `YYYY-MM-DD HH:mm:ss`) for the last `minutes`. The window ends at the start
 * of the next minute: counts are kept per minute and `to` is exclusive, so ending at "now" would
 * drop the current minute's evaluations whenever now falls on a whole minute.
 */
export function analyticsWindow(minutes: number, now: number): { from: string; to: string } {
  const to = dayjs.utc(now).startOf('minute').add(1, 'minute');
  return { from: to.subtract(minutes, 'minute').format(TIMESTAMP_FORMAT), to: to.format(TIMESTAMP_FORMAT) };
}

export function analyticsPath(namespaceKey: string, flagKey: string, minutes: number, now: number): string {
  const { from, to } = analyticsWindow(minutes, now);
  const query = new URLSearchParams({ from, to });
  return `${INTERNAL}/analytics/namespaces/${encodeURIComponent(namespaceKey)}/flags/${encodeURIComponent(flagKey)}?${query}`;
}

export const seriesQuery = (ref: string, namespaceKey: string, flagKey: string, minutes: number) =>
  queryOptions({
    queryKey: flagKeys.series(ref, namespaceKey, flagKey, minutes),
    queryFn: () => request<FlagSeries>('GET', analyticsPath(namespaceKey, flagKey, minutes, Date.now())),
  });

export const useFlagSeries = (namespaceKey: string, flagKey: string, minutes: number) =>
  useQuery(seriesQuery(useCurrentRef(), namespaceKey, flagKey, minutes));
