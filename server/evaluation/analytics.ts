import * as v from 'valibot';
import { FliptError, GrpcCode, invalid } from '../flipt/errors.js';
import type { RouteTable } from '../route-definitions.js';
import type { Database } from '../db/index.js';
import type { Metrics } from '../metrics.js';

/** Rows per INSERT (4 parameters each, well under either dialect's limit). */
const ROWS_PER_INSERT = 500;
const MINUTE_MS = 60_000;

interface Count {
  namespaceKey: string;
  flagKey: string;
  minute: number;
  count: number;
}

/**
 * Counts evaluations per namespace, flag and minute in memory and adds them to the database in
 * batches: every `flushIntervalMs` and when the app closes. A failed flush keeps its counts for the next.
 */
export class AnalyticsRecorder {
  /** namespace → flag → evaluations, for the minute `minute`. */
  private current = new Map<string, Map<string, number>>();
  private minute = 0;
  private unflushed: Count[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly database: () => Database,
    private readonly metrics?: Metrics,
  ) {}

  record(namespaceKey: string, flagKey: string): void {
    const minute = Math.floor(Date.now() / MINUTE_MS);
    if (minute !== this.minute) {
      this.rotate();
      this.minute = minute;
    }
    let flags = this.current.get(namespaceKey);
    if (!flags) {
      flags = new Map();
      this.current.set(namespaceKey, flags);
    }
    flags.set(flagKey, (flags.get(flagKey) ?? 0) + 1);
  }

  start(flushIntervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), flushIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes every count so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.write());
    return this.flushing;
  }

  /** Counts not yet in the database for one flag, by minute. */
  unflushedCounts(namespaceKey: string, flagKey: string): Map<number, number> {
    const counts = new Map<number, number>();
    const current = this.current.get(namespaceKey)?.get(flagKey);
    if (current) counts.set(this.minute, current);
    for (const c of this.unflushed) {
      if (c.namespaceKey === namespaceKey && c.flagKey === flagKey)
        counts.set(c.minute, (counts.get(c.minute) ?? 0) + c.count);
    }
    return counts;
  }

  private rotate(): void {
    for (const [namespaceKey, flags] of this.current) {
      for (const [flagKey, count] of flags) this.unflushed.push({ namespaceKey, flagKey, minute: this.minute, count });
    }
    this.current = new Map();
  }

  private async write(): Promise<void> {
    this.rotate();
    if (this.unflushed.length === 0) return;
    const batch = this.unflushed;
    this.unflushed = [];
    const { db } = this.database();
    try {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < batch.length; i += ROWS_PER_INSERT) {
          await trx
            .insertInto('flag_evaluation_counts')
            .values(
              batch
                .slice(i, i + ROWS_PER_INSERT)
                .map((c) => ({ namespace_key: c.namespaceKey, flag_key: c.flagKey, minute: c.minute, count: c.count })),
            )
            .onConflict((conflict) =>
              conflict
                .columns(['namespace_key', 'flag_key', 'minute'])
                .doUpdateSet((eb) => ({ count: eb('flag_evaluation_counts.count', '+', eb.ref('excluded.count')) })),
            )
            .execute();
        }
      });
      this.metrics?.analyticsFlushes.ok.inc();
    } catch (error) {
      this.metrics?.analyticsFlushes.failed.inc();
      this.unflushed.push(...batch);
      throw error;
    }
  }
}

/**
 * The longest span a series may cover: 31 days (2,976 buckets of 15 minutes). The console asks for 7
 * days at most; without a bound, one request for a span of millennia allocated a bucket per minute
 * until the process ran out of memory.
 */
export const MAX_SERIES_DAYS = 31;

/** Buckets of 1 minute for spans up to 4 hours, of 15 minutes beyond. */
function bucketMinutes(fromMs: number, toMs: number): number {
  return toMs - fromMs <= 4 * 60 * MINUTE_MS ? 1 : 15;
}

export interface FlagSeries {
  timestamps: string[];
  values: number[];
}

/**
 * The evaluation counts of one flag between two instants (from inclusive, to exclusive), zeros
 * filled; each timestamp is its bucket's start as RFC 3339 UTC (`2024-01-01T10:15:00Z`).
 */
export async function flagSeries(
  database: Database,
  recorder: AnalyticsRecorder,
  namespaceKey: string,
  flagKey: string,
  fromMs: number,
  toMs: number,
): Promise<FlagSeries> {
  if (toMs <= fromMs) throw invalid('to must be later than from');
  if (toMs - fromMs > MAX_SERIES_DAYS * 24 * 60 * MINUTE_MS) {
    throw invalid(`the range from "from" to "to" must be at most ${MAX_SERIES_DAYS} days`);
  }
  const step = bucketMinutes(fromMs, toMs);
  const fromMinute = Math.floor(fromMs / MINUTE_MS);
  const endMinute = Math.ceil(toMs / MINUTE_MS);
  const rows = await database.db
    .selectFrom('flag_evaluation_counts')
    .select(['minute', 'count'])
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .where('minute', '>=', fromMinute)
    .where('minute', '<', endMinute)
    .execute();
  const first = Math.floor(fromMinute / step) * step;
  const buckets = Math.max(0, Math.floor((endMinute - 1 - first) / step) + 1);
  const values = new Array<number>(buckets).fill(0);
  const add = (minute: number, count: number) => {
    if (minute >= fromMinute && minute < endMinute) values[Math.floor((minute - first) / step)] += Number(count);
  };
  for (const row of rows) add(Number(row.minute), Number(row.count));
  for (const [minute, count] of recorder.unflushedCounts(namespaceKey, flagKey)) add(minute, count);
  const timestamps = values.map((_, i) => new Date((first + i * step) * MINUTE_MS).toISOString().replace('.000Z', 'Z'));
  return { timestamps, values };
}

/** `/internal/v1/analytics`: a flag's evaluations per minute between `from` and `to` (Go's `time.DateTime` layout, UTC). */
export function analyticsRoutes(routes: RouteTable, database: Database, analytics: AnalyticsRecorder | undefined) {
  routes.add({
    method: 'GET',
    url: '/internal/v1/analytics/namespaces/:namespaceKey/flags/:flagKey',
    protection: 'management',
    params: v.object({ namespaceKey: v.string(), flagKey: v.string() }),
    query: v.object({
      from: v.optional(v.string('must be given once')),
      to: v.optional(v.string('must be given once')),
    }),
    handler: async ({ params, query }) => {
      if (!analytics) throw new FliptError(GrpcCode.Unimplemented, 'analytics are not enabled');
      const from = parseDateTime(query.from ?? '');
      const to = parseDateTime(query.to ?? '');
      return flagSeries(database, analytics, params.namespaceKey, params.flagKey, from, to);
    },
  });
}

/** Go's `time.DateTime` layout (`2006-01-02 15:04:05`), in UTC; a parse failure is a 500 as in Flipt. */
function parseDateTime(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})$/.exec(value);
  const date = match && new Date(0);
  if (match && date) {
    date.setUTCFullYear(+match[1], +match[2] - 1, +match[3]);
    date.setUTCHours(+match[4], +match[5], +match[6]);
    const valid =
      date.getUTCMonth() === +match[2] - 1 &&
      date.getUTCDate() === +match[3] &&
      +match[4] < 24 &&
      +match[5] < 60 &&
      +match[6] < 60;
    if (valid) return date.getTime();
  }
  throw new FliptError(GrpcCode.Internal, `parsing time "${value}" as "2006-01-02 15:04:05": cannot parse`);
}
