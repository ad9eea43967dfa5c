/**
 * SQL over a stored response's JSON columns, shared by the results' reads and the rollups kept at each write:
 * the dialect's JSON access and one question's part of an answer pattern.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { ResponseGroup } from '../../../domain/surveys/summary.js';
import type { TSurveyQuestion } from '../../../domain/surveys/types.js';
import type { Dialect } from '../../db/codec.js';

/** Stands for every choice answer that is no choice of the question, so that "other" texts do not make a group each. */
const OTHER = '__other__';
/** Stands for every truthy answer the summary only tests for truth. */
const ANY = '*';
/** An unanswered question the response spent time on. */
export const DISMISSED = 'D';

/**
 * SQL over a response row's JSON columns in the dialect. On PostgreSQL the data and ttc text columns are
 * parsed once per row (`d`, `t` from a lateral subquery, joined only when a query reads them: after the
 * conditions on the row's own columns, attributes included, have left out what they can); SQLite caches
 * each statement's parsed JSON itself.
 */
export class JsonSql {
  readonly data: RawBuilder<unknown>;
  readonly ttc: RawBuilder<unknown>;
  readonly attributes: RawBuilder<unknown>;

  constructor(readonly dialect: Dialect) {
    const postgres = dialect === 'postgres';
    this.data = postgres ? sql.ref('j.d') : sql.ref('r.data');
    this.ttc = postgres ? sql.ref('j.t') : sql.ref('r.ttc');
    this.attributes = postgres ? sql`(r.person_attributes::jsonb)` : sql.ref('r.person_attributes');
  }

  /** The FROM clause: responses as `r` (and, when `parsed`, their parsed data and ttc as `j` on PostgreSQL). */
  from(parsed = true): RawBuilder<unknown> {
    return this.dialect === 'postgres' && parsed
      ? sql`survey_responses r cross join lateral (select r.data::jsonb as d, r.ttc::jsonb as t offset 0) j`
      : sql`survey_responses r`;
  }

  /** The key or path of a top-level member, as the dialect's JSON operators take it. */
  key(id: string) {
    return this.dialect === 'postgres' ? sql.val(id) : sql.val(`$."${id.replaceAll('"', '\\"')}"`);
  }

  /** The value's JSON text, or NULL when absent. */
  json(column: RawBuilder<unknown>, id: string): RawBuilder<string | null> {
    return this.dialect === 'postgres'
      ? sql`(${column} -> ${this.key(id)})::text`
      : sql`(${column} -> ${this.key(id)})`;
  }

  /** A scalar value as text (strings unquoted), or NULL. */
  text(column: RawBuilder<unknown>, id: string): RawBuilder<string | null> {
    return this.dialect === 'postgres'
      ? sql`(${column} ->> ${this.key(id)})`
      : sql`cast(${column} ->> ${this.key(id)} as text)`;
  }

  /** The value's type: number, string, array, object, boolean, null; NULL when absent. */
  type(column: RawBuilder<unknown>, id: string): RawBuilder<string | null> {
    return this.dialect === 'postgres'
      ? sql`jsonb_typeof(${column} -> ${this.key(id)})`
      : sql`(case json_type(${column}, ${this.key(id)}) when 'integer' then 'number' when 'real' then 'number' when 'text' then 'string' when 'true' then 'boolean' when 'false' then 'boolean' else json_type(${column}, ${this.key(id)}) end)`;
  }

  /** A numeric value (a time, a rating), NULL when absent or no number. */
  number(column: RawBuilder<unknown>, id: string): RawBuilder<number | null> {
    return sql`(case when ${this.type(column, id)} = 'number' then ${
      this.dialect === 'postgres' ? sql`(${column} ->> ${this.key(id)})::float8` : sql`(${column} ->> ${this.key(id)})`
    } end)`;
  }

  /** True when the array value (or the scalar itself) holds the string. */
  contains(column: RawBuilder<unknown>, id: string, values: readonly string[], all: boolean): RawBuilder<SqlBool> {
    if (this.dialect === 'postgres') {
      const list = sql`array[${sql.join(values.map((value) => sql`${value}::text`))}]`;
      return all
        ? sql`coalesce(jsonb_exists_all(${column} -> ${this.key(id)}, ${list}), false)`
        : sql`coalesce(jsonb_exists_any(${column} -> ${this.key(id)}, ${list}), false)`;
    }
    // json_each walks an array's items, or yields a scalar once.
    const one = (value: string) =>
      sql`exists (select 1 from json_each(${column}, ${this.key(id)}) e where e.value = ${value})`;
    if (all) return sql`(${sql.join(values.map(one), sql` and `)})`;
    return sql`exists (select 1 from json_each(${column}, ${this.key(id)}) e where e.value in (${sql.join(values)}))`;
  }

  /** True when the answer (or one of its items) is none of these choices: an "other" text. */
  hasOther(id: string, choices: readonly string[]): RawBuilder<SqlBool> {
    const known = choices.length ? sql.join(choices) : sql`null`;
    if (this.dialect === 'postgres') {
      const value = sql`${this.data} -> ${this.key(id)}`;
      return sql`exists (select 1 from jsonb_array_elements_text(case jsonb_typeof(${value}) when 'array' then ${value} when 'string' then jsonb_build_array(${value}) else '[]'::jsonb end) e(value) where e.value <> '' and e.value not in (${known}))`;
    }
    return sql`exists (select 1 from json_each(${this.data}, ${this.key(id)}) e where e.type = 'text' and e.value <> '' and e.value not in (${known}))`;
  }

  /**
   * The answer as Formbricks' renderer tests "submitted": a number, a non-empty array, a string other
   * than "" and "dismissed".
   */
  submitted(id: string): RawBuilder<SqlBool> {
    const type = this.type(this.data, id);
    const text = this.text(this.data, id);
    const length =
      this.dialect === 'postgres'
        ? sql`jsonb_array_length(${this.data} -> ${this.key(id)})`
        : sql`json_array_length(${this.data}, ${this.key(id)})`;
    return sql`(case ${type} when 'number' then true when 'array' then ${length} > 0 when 'string' then ${text} not in ('', 'dismissed') else false end)`;
  }
}

/**
 * One question's part of a group's key: what of its answer the summary reads (see the constants above),
 * as JSON text, `D` for dismissed, or NULL.
 */
export function answerKey(json: JsonSql, question: TSurveyQuestion): RawBuilder<string | null> {
  const { id } = question;
  const type = json.type(json.data, id);
  const value = json.json(json.data, id);
  const text = json.text(json.data, id);
  const dismissed = sql`(case when ${json.number(json.ttc, id)} > 0 then ${DISMISSED} end)`;
  switch (question.type) {
    case 'nps':
    case 'rating':
      return sql`(case when ${type} = 'number' then ${value} when ${type} is null then ${dismissed} else coalesce(${dismissed}, '""') end)`;
    case 'cta':
    case 'consent':
    case 'cal':
      return sql`(case when ${type} is null then ${dismissed} when ${text} in ('clicked', 'dismissed', 'accepted', 'booked', 'skipped', '') then ${value} else ${JSON.stringify(ANY)} end)`;
    case 'multipleChoiceSingle':
    case 'multipleChoiceMulti':
    case 'pictureSelection': {
      const known =
        question.type === 'pictureSelection' ? question.choices.map((c) => c.id) : question.choices.map((c) => c.label);
      const choices = known.length ? known : [OTHER];
      const item = (itemValue: RawBuilder<unknown>) =>
        sql`(case when ${itemValue} in (${sql.join(choices)}) then ${itemValue} else ${OTHER} end)`;
      const array =
        json.dialect === 'postgres'
          ? sql`(select coalesce(jsonb_agg(${item(sql.ref('e.value'))}), '[]'::jsonb)::text from jsonb_array_elements_text(${json.data} -> ${json.key(id)}) e)`
          : sql`(select json_group_array(${item(sql.ref('e.value'))}) from json_each(${json.data}, ${json.key(id)}) e)`;
      return sql`(case when ${type} is null then null when ${type} = 'array' then ${array} when ${text} = '' then '""' when ${text} in (${sql.join(choices)}) then ${value} else ${JSON.stringify(OTHER)} end)`;
    }
    default:
      return sql`(case when ${type} is null then null when ${type} = 'array' and ${json.submitted(id)} then ${JSON.stringify([ANY])} when ${text} in ('', 'skipped', 'dismissed') then ${value} when ${type} = 'array' then '[]' else ${JSON.stringify(ANY)} end)`;
  }
}

export type DayGroup = ResponseGroup & { day?: string };
