import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import utc from 'dayjs/plugin/utc';
import type { Timezone } from '../stores/preferences';

dayjs.extend(utc);
dayjs.extend(relativeTime);

export const TIMESTAMP_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export function fromNow(value: string): string {
  return dayjs(value).fromNow();
}

/** Builds a datetime constraint value from a date and an optional time (midnight by default). */
export function toDatetimeValue(date: string, time: string, timezone: Timezone): string {
  const local = `${date}T${time || '00:00'}`;
  const instant = timezone === 'utc' ? dayjs.utc(local) : dayjs(local);
  return instant.isValid() ? instant.utc().format('YYYY-MM-DDTHH:mm:ss[Z]') : '';
}

/** Splits a stored datetime value into the date and time inputs for the chosen timezone. */
export function fromDatetimeValue(value: string, timezone: Timezone): { date: string; time: string } {
  if (!value) return { date: '', time: '' };
  const parsed = timezone === 'utc' ? dayjs.utc(value) : dayjs(value);
  if (!parsed.isValid()) return { date: '', time: '' };
  return { date: parsed.format('YYYY-MM-DD'), time: parsed.format('HH:mm') };
}
