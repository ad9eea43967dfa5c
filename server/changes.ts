import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/**
 * The change feed: every committed write to a namespace's flags or segments is published here, so
 * whoever caches derived state (the evaluation snapshots) can drop it. `publish` is called by the
 * storage layer after the transaction commits; listeners run synchronously.
 * With PostgreSQL, `relayThroughPostgres` also sends each change to the other server instances on
 * the same database (LISTEN/NOTIFY) and publishes theirs here; `relayThroughCluster` does the same
 * between the worker processes of one server.
 */
export type ChangeListener = (namespaceKey: string, origin: ChangeOrigin) => void;

/**
 * Where a change was made: `here` is this server (its own writes, and its sibling worker processes'), whose
 * next requests must see it; `elsewhere` is another instance on the same database.
 */
export type ChangeOrigin = 'here' | 'elsewhere';

/** Published instead of a key when any namespace may have changed (the relay lost its connection). */
export const ALL_NAMESPACES = '*';

const CHANNEL = 'ensign_changes';
const RECONNECT_DELAY_MS = 500;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  /** Where this instance's own changes go besides its listeners: the other instances. */
  private readonly relays = new Set<(namespaceKey: string) => void>();

  publish(namespaceKey: string): void {
    this.deliver(namespaceKey, 'here');
    for (const relay of this.relays) relay(namespaceKey);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Relays changes between every instance that runs this on the same PostgreSQL database. A
   * dedicated connection LISTENs; when it drops, it reconnects and publishes ALL_NAMESPACES since
   * changes may have been missed meanwhile. Resolves once listening; the returned function stops.
   */
  async relayThroughPostgres(url: string, pool: pg.Pool): Promise<() => Promise<void>> {
    const { default: pg } = await import('pg');
    const origin = randomUUID();
    let client: pg.Client | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;

    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: url });
      next.on('notification', (message) => {
        const payload = message.payload ?? '';
        const space = payload.indexOf(' ');
        if (space < 0 || payload.slice(0, space) === origin) return;
        this.deliver(payload.slice(space + 1), 'elsewhere');
      });
      next.on('error', () => reconnect(next));
      next.on('end', () => reconnect(next));
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
    };
    const reconnect = (failed: pg.Client) => {
      if (stopped || client !== failed || retry) return;
      client = undefined;
      failed.end().catch(() => undefined);
      const attempt = () => {
        retry = undefined;
        if (stopped) return;
        connect().then(
          () => this.deliver(ALL_NAMESPACES, 'elsewhere'),
          () => (retry = setTimeout(attempt, RECONNECT_DELAY_MS)),
        );
      };
      retry = setTimeout(attempt, RECONNECT_DELAY_MS);
    };

    await connect();
    const notify = (namespaceKey: string) => {
      pool.query('SELECT pg_notify($1, $2)', [CHANNEL, `${origin} ${namespaceKey}`]).catch(() => undefined);
    };
    this.relays.add(notify);
    return async () => {
      stopped = true;
      this.relays.delete(notify);
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  }

  /**
   * In a node:cluster worker (server/workers.ts): sends each change to the primary, which passes it
   * to the other workers, and publishes theirs here. The returned function stops.
   */
  relayThroughCluster(): () => void {
    const fromPrimary = (message: unknown) => {
      if (isClusterChange(message)) this.deliver(message.ensignChange, 'here');
    };
    const toPrimary = (namespaceKey: string) => {
      const message: ClusterChange = { ensignChange: namespaceKey };
      process.send?.(message);
    };
    process.on('message', fromPrimary);
    this.relays.add(toPrimary);
    return () => {
      process.off('message', fromPrimary);
      this.relays.delete(toPrimary);
    };
  }

  private deliver(namespaceKey: string, origin: ChangeOrigin): void {
    for (const listener of this.listeners) listener(namespaceKey, origin);
  }
}

/** A change as the cluster workers and their primary pass it on. */
export interface ClusterChange {
  ensignChange: string;
}

export function isClusterChange(message: unknown): message is ClusterChange {
  return typeof message === 'object' && message !== null && typeof (message as ClusterChange).ensignChange === 'string';
}
