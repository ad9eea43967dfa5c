import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { INTERNAL, request } from '../../api/client';
import { TIMESTAMP_FORMAT } from '../../lib/time';
import { analyticsKeys } from './keys';

/** The ranges the analytics tab offers, in minutes. */
export const ANALYTICS_RANGES = [
  { label: 'Last 30 minutes', minutes: 30 },
  { label: 'Last hour', minutes: 60 },
  { label: 'Last 4 hours', minutes: 4 * 60 },
  { label: 'Last 12 hours', minutes: 12 * 60 },
  { label: 'Last 24 hours', minutes: 24 * 60 },
  { label: 'Last 7 days', minutes: 7 * 24 * 60 },
] as const;

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

/** The series as uPlot data: Unix seconds and counts. Timestamps without a zone are UTC. */
export function toChartData(series: FlagSeries): [number[], number[]] {
  return [series.timestamps.map((timestamp) => dayjs.utc(timestamp).unix()), series.values.map(Number)];
}

export function useFlagSeries(namespaceKey: string, flagKey: string, minutes: number) {
  return useQuery({
    queryKey: analyticsKeys.series(namespaceKey, flagKey, minutes),
    queryFn: () => request<FlagSeries>('GET', analyticsPath(namespaceKey, flagKey, minutes, Date.now())),
  });
}
