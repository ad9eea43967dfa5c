/**
 * A survey's results, for the console and the management API: the summary (Formbricks 1.6's formulas in
 * domain/surveys/summary.ts over response groups the database makes), trends per day, the keyset-paged
 * response list with tags and notes, and the CSV export, streamed page by page.
 */
import type { ResponseFilter } from '../../domain/surveys/response-filter.js';
import {
  npsSummary,
  ratingSummary,
  surveySummary,
  type QuestionSummary,
  type SurveySummary,
} from '../../domain/surveys/summary.js';
import type { TSurvey, TSurveyQuestion } from '../../domain/surveys/types.js';
import type { Database } from '../db/index.js';
import { type ResponseRecord, responseFromRow } from './store/responses.js';
import { annotations, type NoteRecord, surveyHasAnnotations, type TagRecord } from './store/annotations.js';
import {
  answerSamples,
  type AnswerSample,
  type Cursor,
  displayCount,
  type ExportRow,
  exportPage,
  type ResponseScope,
  responseGroups,
  lowerBound,
  responsePage,
} from './store/results.js';
import type { DayGroup } from './store/answer-sql.js';
import { type DayRange, rolledUpDisplays, rolledUpGroups, rolledUpTimes, rollupsCurrent } from './store/rollups.js';

/** Answers listed per open-text, date, file or hidden-field question, and "other" texts per choice question. */
export const SAMPLE_SIZE = 50;

export type ResultsQuestionSummary = QuestionSummary & { samples?: AnswerSample[] };

export interface ResultsSummary extends Omit<SurveySummary, 'questions'> {
  questions: ResultsQuestionSummary[];
  hiddenFields: { fieldId: string; total: number; samples: AnswerSample[] }[];
}

const hiddenFieldIds = (survey: TSurvey) => (survey.hiddenFields.enabled ? (survey.hiddenFields.fieldIds ?? []) : []);

/** Hidden fields group and count as open-text answers do. */
const asQuestion = (id: string) => ({ id, type: 'openText', headline: id, required: false }) as TSurveyQuestion;

/**
 * How a filter is read from the rollups (store/rollups.ts): the whole UTC days it takes in, from the
 * rollups, and the parts of days at its ends, scanned (each a filter of its own). Undefined when the
 * rollups cannot answer it (person attributes, tags or answers filtered, or no rollups for the survey's
 * current definition): then everything is scanned.
 */
interface RollupPlan {
  days?: DayRange;
  edges: ResponseFilter[];
}

const nonEmpty = (value: object | undefined) => value !== undefined && Object.keys(value).length > 0;
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** What the rollups can answer: the finished flag and a date range; any other condition (flag values too) is scanned. */
const ROLLED_UP: readonly string[] = ['finished', 'createdAt'];

export function rollupPlan(filter: ResponseFilter): RollupPlan | undefined {
  for (const [key, value] of Object.entries(filter)) {
    if (ROLLED_UP.includes(key) || value === undefined) continue;
    if (key === 'tags' && !filter.tags?.applied?.length && !filter.tags?.notApplied?.length) continue;
    if ((key === 'personAttributes' || key === 'data') && !nonEmpty(value)) continue;
    return undefined;
  }
  const base: ResponseFilter = filter.finished === undefined ? {} : { finished: filter.finished };
  const { min, max } = filter.createdAt ?? {};
  let first = min?.slice(0, 10);
  let last = max?.slice(0, 10);
  const edges: ResponseFilter[] = [];
  let lastDayScanned = false;
  if (min && first && lowerBound(min) > `${first}T00:00:00.000`) {
    const endOfDay = `${first}T23:59:59.999Z`;
    edges.push({ ...base, createdAt: { min, max: max !== undefined && max < endOfDay ? max : endOfDay } });
    lastDayScanned = first === last;
    first = addDays(first, 1);
  }
  if (max && last && max < `${last}T23:59:59.999Z`) {
    const startOfDay = `${last}T00:00:00.000Z`;
    if (!lastDayScanned) {
      edges.push({ ...base, createdAt: { min: min !== undefined && min > startOfDay ? min : startOfDay, max } });
    }
    last = addDays(last, -1);
  }
  return { days: first && last && first > last ? undefined : { first, last }, edges };
}

/**
 * The survey's response groups and displays under the filter: from the rollups and the scanned ends of
 * a date range when the rollups can answer the filter, else from one scan.
 */
async function groupsOf(
  database: Database,
  survey: TSurvey,
  filter: ResponseFilter,
  options: { questions: readonly TSurveyQuestion[]; timed?: boolean; byDay?: boolean; displays?: boolean },
): Promise<{ groups: DayGroup[]; displays: number }> {
  // Awaited on every path that reads the rollups; a failure falls back to the scan, which reports it.
  const current = rollupsCurrent(database, survey).catch(() => false);
  const displays = options.displays ? displaysOf(database, survey, filter, current) : 0;
  const plan = rollupPlan(filter);
  if (!plan || !(await current)) {
    const [groups, count] = await Promise.all([responseGroups(database, survey, filter, options), displays]);
    return { groups, displays: count };
  }
  const { days } = plan;
  const [rolled, times, edges, count] = await Promise.all([
    days ? rolledUpGroups(database, survey, days, { finished: filter.finished, byDay: options.byDay }) : [],
    days && options.timed ? rolledUpTimes(database, survey.id, days, { finished: filter.finished }) : undefined,
    Promise.all(plan.edges.map((edge) => responseGroups(database, survey, edge, options))),
    displays,
  ]);
  // The rolled-up days' times ride on a group of no responses: the formulas only sum a group's times.
  const timesGroup: DayGroup[] = times ? [{ count: 0, finished: false, data: {}, dismissed: [], ttc: times }] : [];
  return { groups: [...rolled, ...timesGroup, ...edges.flat()], displays: count };
}

/**
 * The survey's displays under the filter: only its date range and flag values apply to displays, so
 * without flag values the whole days come from the rollups (and the ends of the range are counted),
 * whatever else the filter asks of the responses.
 */
async function displaysOf(
  database: Database,
  survey: TSurvey,
  filter: ResponseFilter,
  current: Promise<boolean>,
): Promise<number> {
  const plan = rollupPlan({ createdAt: filter.createdAt });
  if (filter.flagValues || !plan || !(await current)) return displayCount(database, survey.id, filter);
  const counts = await Promise.all([
    plan.days ? rolledUpDisplays(database, survey.id, plan.days) : 0,
    ...plan.edges.map((edge) => displayCount(database, survey.id, edge)),
  ]);
  return counts.reduce((sum, count) => sum + count, 0);
}

export async function summarize(database: Database, survey: TSurvey, filter: ResponseFilter): Promise<ResultsSummary> {
  const hidden = hiddenFieldIds(survey);
  const { groups, displays } = await groupsOf(database, survey, filter, {
    questions: [...survey.questions, ...hidden.map(asQuestion)],
    timed: true,
    displays: true,
  });
  const summary = surveySummary(survey, groups, displays);
  const sampled = (questionId: string, otherThan?: readonly string[]) =>
    answerSamples(database, survey.id, filter, questionId, SAMPLE_SIZE, otherThan);
  const questions = await Promise.all(
    summary.questions.map(async (entry, i): Promise<ResultsQuestionSummary> => {
      const question = survey.questions[i];
      if (entry.type === 'openText' || entry.type === 'date' || entry.type === 'fileUpload') {
        return { ...entry, samples: await sampled(question.id) };
      }
      if (
        (question.type === 'multipleChoiceSingle' || question.type === 'multipleChoiceMulti') &&
        question.choices.some((choice) => choice.id === 'other')
      ) {
        const labels = question.choices.filter((choice) => choice.id !== 'other').map((choice) => choice.label);
        return { ...entry, samples: await sampled(question.id, labels) };
      }
      return entry;
    }),
  );
  const hiddenFields = await Promise.all(
    hidden.map(async (fieldId) => {
      let total = 0;
      for (const group of groups)
        if (group.data[fieldId] !== undefined && group.data[fieldId] !== '') total += group.count;
      return { fieldId, total, samples: await sampled(fieldId) };
    }),
  );
  return { ...summary, questions, hiddenFields };
}

export interface TrendDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  responses: number;
  /** NPS score per NPS question, null on a day with no answer to it. */
  nps: Record<string, number | null>;
  /** Average rating per rating question, null on a day with no rating. */
  rating: Record<string, number | null>;
}

/** Responses, NPS and average rating per UTC day, every day of the range (or of the responses) included. */
export async function trends(database: Database, survey: TSurvey, filter: ResponseFilter): Promise<TrendDay[]> {
  const scored = survey.questions.filter((q) => q.type === 'nps' || q.type === 'rating');
  const { groups } = await groupsOf(database, survey, filter, { questions: scored, byDay: true });
  const byDay = new Map<string, typeof groups>();
  for (const group of groups) {
    const day = group.day!;
    byDay.set(day, [...(byDay.get(day) ?? []), group]);
  }
  const known = [...byDay.keys()].sort();
  const first = filter.createdAt?.min?.slice(0, 10) ?? known[0];
  const last = filter.createdAt?.max?.slice(0, 10) ?? known.at(-1);
  if (!first || !last) return [];
  const days: TrendDay[] = [];
  for (let at = Date.parse(`${first}T00:00:00Z`); at <= Date.parse(`${last}T00:00:00Z`); at += 86_400_000) {
    const day = new Date(at).toISOString().slice(0, 10);
    const dayGroups = byDay.get(day) ?? [];
    const nps: TrendDay['nps'] = {};
    const rating: TrendDay['rating'] = {};
    for (const question of scored) {
      if (question.type === 'nps') {
        const summary = npsSummary(question.id, dayGroups);
        nps[question.id] = summary.total > 0 ? summary.score : null;
      } else if (question.type === 'rating') {
        const summary = ratingSummary(question.id, question.range, dayGroups);
        rating[question.id] = summary.total > summary.dismissed.count ? summary.average : null;
      }
    }
    days.push({ day, responses: dayGroups.reduce((sum, group) => sum + group.count, 0), nps, rating });
    if (days.length > 3660) break;
  }
  return days;
}

/** A response as Formbricks' API gives it, with its tags and notes. */
export interface ResultResponse extends Omit<ResponseRecord, 'flag'> {
  singleUseId: null;
  tags: TagRecord[];
  notes: NoteRecord[];
}

export const encodeCursor = (cursor: Cursor) => Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString('base64url');

export function decodeCursor(text: string): Cursor | undefined {
  const [createdAt, id, extra] = Buffer.from(text, 'base64url').toString().split('|');
  return createdAt && id && extra === undefined ? { createdAt, id } : undefined;
}

/** A page of responses, newest first, with the cursor of the next page when there may be one. */
export async function listResponses(
  database: Database,
  scope: ResponseScope,
  filter: ResponseFilter,
  page: { limit: number; after?: Cursor; skip?: number },
): Promise<{ data: ResultResponse[]; nextCursor: string | null }> {
  const rows = await responsePage(database, scope, filter, page);
  const extras = await annotations(
    database,
    rows.map((row) => row.id),
  );
  const last = rows.at(-1);
  return {
    data: rows.map((row) => ({ ...responseFromRow(row), singleUseId: null, ...extras.get(row.id)! })),
    nextCursor: last && rows.length === page.limit ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/**
 * Responses read per round trip while exporting: a few MB of CSV per write, memory flat. PostgreSQL's
 * pages are smaller: the server's CPU per MB (the driver's text and the parsed rows, young enough to be
 * collected cheaply) was a third lower at 2,000 than at 5,000 when a page came as one JSON array, and
 * about even since; SQLite did best at 5,000.
 */
const EXPORT_PAGE = { sqlite: 5000, postgres: 2000 } as const;
const META_FIELDS = ['source', 'url', 'userAgent - browser', 'userAgent - os', 'userAgent - device'];

const NEEDS_QUOTES = /[",\r\n]/;
/** Text a spreadsheet would take for a formula (OWASP's list for CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell. Text that a spreadsheet would run as a formula is neutralised as OWASP recommends: a leading `'`
 * and quoted. A number written from a number value stays as it is.
 */
export function csvField(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(value);
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.join('; ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  if (FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The filtered responses as CSV with Formbricks' columns (No., Response ID, Timestamp, Finished, Survey ID,
 * User ID, Notes, Tags, meta fields, one column per question, hidden fields, person attributes; and the
 * linked flag's value when the survey links one), newest
 * first, produced one page at a time so that memory stays flat.
 */
export async function* exportCsv(
  database: Database,
  survey: TSurvey,
  filter: ResponseFilter,
  attributeKeys: readonly string[],
  pageSize: number = EXPORT_PAGE[database.dialect],
): AsyncGenerator<string> {
  const hidden = hiddenFieldIds(survey);
  const header = [
    'No.',
    'Response ID',
    'Timestamp',
    'Finished',
    'Survey ID',
    'User ID',
    'Notes',
    'Tags',
    ...META_FIELDS,
    ...survey.questions.map((question, i) => `${i + 1}. ${question.headline}`),
    ...hidden,
    ...attributeKeys,
    // A survey linked to a flag: what the flag gave each visitor when it was shown.
    ...(survey.linkedFlag ? [`${survey.linkedFlag.flagKey} (flag)`] : []),
  ];
  yield `${header.map(csvField).join(',')}\r\n`;
  const annotated = await surveyHasAnnotations(database, survey.id);
  const surveyField = csvField(survey.id);
  const answerIds = [...survey.questions.map((question) => question.id), ...hidden];
  const none = { tags: [], notes: [] };
  // A page's rows share their meta and attribute objects when the texts repeat (exportPage): their
  // columns are written once per object.
  const metaColumns = new WeakMap<ExportRow['meta'], string>();
  const attributeColumns = new WeakMap<object, string>();
  const columnsOf = <T extends object>(kept: WeakMap<T, string>, value: T, write: (value: T) => string) => {
    let columns = kept.get(value);
    if (columns === undefined) kept.set(value, (columns = write(value)));
    return columns;
  };
  const writeMeta = (meta: ExportRow['meta']) =>
    `${csvField(meta.source)},${csvField(meta.url)},${csvField(meta.userAgent?.browser)},${csvField(meta.userAgent?.os)},${csvField(meta.userAgent?.device)}`;
  const writeAttributes = (attributes: Record<string, unknown>) => {
    let columns = '';
    for (const key of attributeKeys) columns += `,${csvField(attributes[key] ?? '')}`;
    return columns;
  };
  const noAttributes = {};
  let number = 0;
  const readPage = (after?: Cursor) => {
    const page = exportPage(database, survey.id, filter, { limit: pageSize, after });
    // Awaited below unless the download stops first; then its failure must not go unhandled.
    page.catch(() => undefined);
    return page;
  };
  let next = readPage();
  for (;;) {
    const rows = await next;
    if (rows.length === 0) return;
    const more = rows.length === pageSize;
    // The next page is read while this one is written out (PostgreSQL in its own process, SQLite on the
    // thread of reads aside).
    const last = rows.at(-1)!;
    if (more) {
      next = readPage({ createdAt: last.createdAt, id: last.id });
      // The PostgreSQL driver sends a query a few ticks after it is asked for it: without a turn of the
      // event loop here, it went out only once this page was written, and nothing overlapped.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const extras = annotated
      ? await annotations(
          database,
          rows.map((row) => row.id),
        )
      : undefined;
    const lines: string[] = [];
    for (const row of rows) {
      const { tags, notes } = extras?.get(row.id) ?? none;
      const { data, meta } = row;
      const notesField = notes.length
        ? csvField(notes.map((note) => `${note.user.name}: ${note.text}`).join('\n'))
        : '';
      const tagsField = tags.length ? csvField(tags.map((tag) => tag.name).join(', ')) : '';
      let line = `${++number},${csvField(row.id)},${csvField(row.createdAt)},${row.finished ? 'Yes' : 'No'},${surveyField},${csvField(row.userId ?? '')},${notesField},${tagsField},${columnsOf(metaColumns, meta, writeMeta)}`;
      for (const id of answerIds) line += `,${csvField(data[id])}`;
      line += columnsOf(attributeColumns, row.attributes ?? noAttributes, writeAttributes);
      if (survey.linkedFlag) line += `,${csvField(row.flagVariant ?? '')}`;
      lines.push(line);
    }
    lines.push('');
    yield lines.join('\r\n');
    if (!more) return;
  }
}
