// Absolute timestamps, without dayjs: the list pages show one per row on the first page, and dayjs with
// its plugins (src/lib/time.ts, for relative times and date inputs) would add 4.6 KB gzipped to it.
import type { Timezone } from '../stores/preferences';

// dayjs's reading of a date string, kept so that every timestamp reads as before: without a trailing Z,
// a date and time with no offset is local time (a date alone, local midnight, milliseconds from the first
// three digits); anything else is read by Date.
const LOCAL_DATE_TIME = /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;

function parse(value: string): Date {
  const local = /Z$/i.test(value) ? null : LOCAL_DATE_TIME.exec(value);
  if (!local) return new Date(value);
  const [, year, month, day, hours, minutes, seconds, fraction] = local;
  return new Date(
    Number(year),
    Number(month) - 1 || 0,
    Number(day || 1),
    Number(hours || 0),
    Number(minutes || 0),
    Number(seconds || 0),
    Number((fraction || '0').substring(0, 3)),
  );
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** `yyyy-MM-dd HH:mm:ss` in the chosen timezone, with ' UTC' appended when UTC is chosen. */
export function formatTimestamp(value: string, timezone: Timezone): string {
  const time = parse(value);
  const utc = timezone === 'utc';
  if (Number.isNaN(time.getTime())) return utc ? 'Invalid Date UTC' : 'Invalid Date';
  const [year, month, day, hours, minutes, seconds] = utc
    ? [
        time.getUTCFullYear(),
        time.getUTCMonth(),
        time.getUTCDate(),
        time.getUTCHours(),
        time.getUTCMinutes(),
        time.getUTCSeconds(),
      ]
    : [time.getFullYear(), time.getMonth(), time.getDate(), time.getHours(), time.getMinutes(), time.getSeconds()];
  const formatted = `${pad(year, 4)}-${pad(month + 1)}-${pad(day)} ${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  return utc ? `${formatted} UTC` : formatted;
}
