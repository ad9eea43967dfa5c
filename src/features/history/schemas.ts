import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import * as v from 'valibot';
import type { HistoryEntityType } from '../../../domain/flipt/history';
import type { Timezone } from '../../stores/preferences';

/** The query parameters of `GET .../history` that narrow it; absent or '' means any. */
export interface HistoryFilter {
  entityType?: HistoryEntityType;
  entityKey?: string;
  actor?: string;
  since?: string;
  until?: string;
}

dayjs.extend(utc);

const date = v.union([v.literal(''), v.pipe(v.string(), v.isoDate('Enter a date as YYYY-MM-DD'))]);

/** The namespace History page's filter form: entity, actor and a range of days. */
export const filterSchema = v.pipe(
  v.object({
    entityType: v.picklist(['', 'flag', 'segment', 'namespace']),
    entityKey: v.string(),
    actor: v.string(),
    from: date,
    to: date,
  }),
  v.forward(
    v.check(
      (values) => !values.entityKey.trim() || values.entityType !== '',
      'Choose the kind of entity the key names',
    ),
    ['entityKey'],
  ),
  v.forward(
    v.check((values) => !values.from || !values.to || values.from <= values.to, 'The end is before the start'),
    ['to'],
  ),
);

export type FilterValues = v.InferOutput<typeof filterSchema>;

export const NO_FILTER: FilterValues = { entityType: '', entityKey: '', actor: '', from: '', to: '' };

/** The server's filter for the form's values: whole days in the operator's chosen timezone. */
export function toHistoryFilter(values: FilterValues, timezone: Timezone): HistoryFilter {
  const day = (text: string) => (timezone === 'utc' ? dayjs.utc(text) : dayjs(text));
  return {
    entityType: values.entityType || undefined,
    entityKey: values.entityKey.trim() || undefined,
    actor: values.actor.trim() || undefined,
    since: values.from ? day(values.from).startOf('day').toISOString() : undefined,
    until: values.to ? day(values.to).endOf('day').toISOString() : undefined,
  };
}
