import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeFeed } from '../changes.js';
import type { AuditConfig } from '../config/audit.js';
import type { Database } from '../db/index.js';
import { deleteHistoryBefore } from '../flipt/store/history.js';
import { eventOf, wanted } from './events.js';
import { type AuditSink, LogSink, WebhookSink } from './sinks.js';

/** How long an instance keeps the right to deliver a sink's events without renewing it. */
const LEASE_MS = 30_000;
/** After a failed delivery, the first pause before trying again; it doubles up to MAX_RETRY_MS. */
const RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;
const RETENTION_EVERY_MS = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Delivers the change history to the audit sinks. Each sink has a cursor (`audit_cursors`): the id of
 * the last row it delivered, moved on after each delivery, so events reach a sink once, in order,
 * and a sink that failed resumes where it stopped, after a restart too. A sink enabled for the first
 * time starts at the end of the history. Rows are read as soon as this instance commits a change, and
 * every `audit.buffer.flush_period` for the changes of other instances; `capacity` rows at a time.
 * With several instances (or worker processes) on one database, one at a time holds a sink's lease.
 */
export class AuditDispatcher {
  private readonly holder = randomUUID();
  private readonly sinks: AuditSink[];
  private running?: Promise<void>;
  private again = false;
  private retryMs = RETRY_MS;
  private retry?: NodeJS.Timeout;
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe?: () => void;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly config: AuditConfig['audit'],
    private readonly log: FastifyBaseLogger,
  ) {
    this.sinks = [
      ...(config.log.enabled ? [new LogSink(config.log)] : []),
      ...(config.webhook.enabled ? [new WebhookSink(config.webhook)] : []),
    ];
  }

  /**
   * Creates the cursors of sinks enabled for the first time before the server takes requests, so
   * that every change it accepts from then on reaches them.
   */
  async start(changes: ChangeFeed): Promise<void> {
    if (this.sinks.length > 0) {
      for (const sink of this.sinks) await this.ensureCursor(sink.name);
      this.unsubscribe = changes.subscribe(() => {
        // The sinks are fed on their own time: a write does not wait for them.
        void this.wake();
      });
      this.timers.push(setInterval(() => this.wake(), this.config.buffer.flushPeriodMs));
      this.wake();
    }
    const cleanup = () => this.removeExpiredHistory();
    this.timers.push(setInterval(cleanup, RETENTION_EVERY_MS), setTimeout(cleanup, 10_000));
    for (const timer of this.timers) timer.unref();
  }

  /** Deletes the history entries older than `audit.history.retention`. */
  async removeExpiredHistory(): Promise<number> {
    const before = iso(Date.now() - this.config.historyRetentionMs).replace(/\.(\d{3})Z$/, '.$1000Z');
    try {
      return await deleteHistoryBefore(this.database, before);
    } catch (error) {
      this.log.warn(`audit: removing history older than ${before} failed: ${(error as Error).message}`);
      return 0;
    }
  }

  /** Delivers what is pending now (one round at a time; a wake during a round runs another after it). */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.deliverAll();
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async deliverAll(): Promise<void> {
    let failed = false;
    for (const sink of this.sinks) {
      try {
        await this.deliver(sink);
      } catch (error) {
        failed = true;
        this.log.warn(`audit: ${sink.name} sink: ${(error as Error).message}; trying again later`);
      }
    }
    clearTimeout(this.retry);
    if (failed && !this.closed) {
      this.retry = setTimeout(() => this.wake(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    } else {
      this.retryMs = RETRY_MS;
    }
  }

  private async deliver(sink: AuditSink): Promise<void> {
    let cursor = await this.claim(sink.name);
    while (cursor !== undefined && !this.closed) {
      const rows = await this.database.db
        .selectFrom('history')
        .selectAll()
        .where('id', '>', cursor)
        .orderBy('id')
        .limit(this.config.buffer.capacity)
        .execute();
      if (rows.length === 0) return;
      const events = rows.map(eventOf).filter((event) => wanted(this.config.events, event));
      if (events.length) await sink.send(events);
      cursor = Number(rows[rows.length - 1].id);
      if (!(await this.advance(sink.name, cursor))) return;
    }
  }

  /** A sink seen for the first time starts at the end of the history (no lease taken yet). */
  private async ensureCursor(sink: string): Promise<void> {
    const { db } = this.database;
    const last = await db.selectFrom('history').select(db.fn.max('id').as('id')).executeTakeFirst();
    await db
      .insertInto('audit_cursors')
      .values({ sink, last_id: Number(last?.id ?? 0), holder: this.holder, lease_until: iso(0) })
      .onConflict((conflict) => conflict.column('sink').doNothing())
      .execute();
  }

  /** The sink's cursor, if this instance holds (or now takes) its lease. */
  private async claim(sink: string): Promise<number | undefined> {
    const { db } = this.database;
    const now = Date.now();
    const row = await db.selectFrom('audit_cursors').selectAll().where('sink', '=', sink).executeTakeFirstOrThrow();
    if (row.holder !== this.holder && row.lease_until > iso(now)) return undefined;
    const taken = await db
      .updateTable('audit_cursors')
      .set({ holder: this.holder, lease_until: iso(now + LEASE_MS) })
      .where('sink', '=', sink)
      .where('holder', '=', row.holder)
      .where('lease_until', '=', row.lease_until)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? Number(row.last_id) : undefined;
  }

  private async advance(sink: string, lastId: number): Promise<boolean> {
    const moved = await this.database.db
      .updateTable('audit_cursors')
      .set({ last_id: lastId, lease_until: iso(Date.now() + LEASE_MS) })
      .where('sink', '=', sink)
      .where('holder', '=', this.holder)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  }

  /** Stops; a round under way finishes its current delivery. The lease is given up for the next instance. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    clearTimeout(this.retry);
    for (const timer of this.timers) clearTimeout(timer);
    await this.running;
    await this.database.db
      .updateTable('audit_cursors')
      .set({ lease_until: iso(0) })
      .where('holder', '=', this.holder)
      .execute()
      .catch(() => undefined);
  }
}
