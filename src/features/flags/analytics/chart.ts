import dayjs from 'dayjs';
import type { FlagSeries } from './api';

/** The ranges the analytics tab offers, in minutes. */
export const ANALYTICS_RANGES = [
  { label: 'Last 30 minutes', minutes: 30 },
  { label: 'Last hour', minutes: 60 },
  { label: 'Last 4 hours', minutes: 4 * 60 },
  { label: 'Last 12 hours', minutes: 12 * 60 },
  { label: 'Last 24 hours', minutes: 24 * 60 },
  { label: 'Last 7 days', minutes: 7 * 24 * 60 },
] as const;

/** The series as uPlot data: Unix seconds and counts. Timestamps without a zone are UTC. */
export function toChartData(series: FlagSeries): [number[], number[]] {
  return [series.timestamps.map((timestamp) => dayjs.utc(timestamp).unix()), series.values.map(Number)];
}
