import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { HistoryEntityType } from '../domain/flipt/history.js';

/**
 * The change feed: every committed write to a namespace's flags or segments is published here, so
 * whoever caches derived state (the evaluation snapshots) can drop it. `publish` is called by the
 * storage layer after the transaction commits; listeners run synchronously.
 * With PostgreSQL, `relayThroughPostgres` also sends each change to the other server instances on
 * the same database (LISTEN/NOTIFY) and publishes theirs here; `relayThroughCluster` does the same
 * between the worker processes of one server.
 */
export type ChangeListener = (namespaceKey: string, origin: ChangeOrigin, scope?: ChangeScope) => void | Promise<void>;

/** The flags and segments a change touched in its namespace; a change without one may have touched anything. */
export interface ChangeScope {
  flags: string[];
  segments: string[];
}

/** A change to one entity, as a write makes it and the history records it. */
export interface EntityChange {
  namespaceKey: string;
  entityType: HistoryEntityType;
  entityKey: string;
}

/** What a run of entity changes touched, by namespace: a change to a namespace itself touches anything in it. */
export class TouchedScopes {
  private readonly byNamespace = new Map<string, { flags: Set<string>; segments: Set<string> } | 'whole'>();
  /** The ids of the history entries the changes recorded. */
  readonly entries: number[] = [];

  recorded(entryId: number | undefined): void {
    if (entryId !== undefined) this.entries.push(entryId);
  }

  add({ namespaceKey, entityType, entityKey }: EntityChange): void {
    const touched = this.byNamespace.get(namespaceKey) ?? { flags: new Set<string>(), segments: new Set<string>() };
    if (entityType === 'namespace') this.byNamespace.set(namespaceKey, 'whole');
    else if (touched !== 'whole') {
      touched[entityType === 'flag' ? 'flags' : 'segments'].add(entityKey);
      this.byNamespace.set(namespaceKey, touched);
    }
  }

  /** Each namespace touched with its scope, undefined where anything in it may have changed. */
  *scopes(): Iterable<[namespaceKey: string, scope: ChangeScope | undefined]> {
    for (const [namespaceKey, touched] of this.byNamespace) {
      yield [
        namespaceKey,
        touched === 'whole' ? undefined : { flags: [...touched.flags], segments: [...touched.segments] },
      ];
    }
  }
}

/**
 * Where a change was made: `own` is a write of this process, published before the write is answered, so a
 * listener may make the answer wait until it has taken the change in; `here` is a sibling worker process of
 * this server, whose next requests must see it; `elsewhere` is another instance on the same database.
 */
export type ChangeOrigin = 'own' | 'here' | 'elsewhere';

/** Published instead of a key when any namespace may have changed (the relay lost its connection). */
export const ALL_NAMESPACES = '*';

const CHANNEL = 'ensign_changes';
const RECONNECT_DELAY_MS = 500;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  /** Where this instance's own changes go besides its listeners: the other instances. */
  private readonly relays = new Set<(namespaceKey: string, scope?: ChangeScope) => void>();
  /** History entries this process wrote and published itself, which followHistory passes over; undefined unless it runs. */
  private recordedByThisProcess?: Set<number>;

  /** Notes the history entries of changes this process publishes, so that following the history does not publish them again. */
  recordedHere(entryIds: number[]): void {
    for (const id of entryIds) this.recordedByThisProcess?.add(id);
  }

  /**
   * Publishes a change this process committed. Resolves once every listener has taken it in (the evaluation
   * snapshots hold it): a writer that waits for it before answering lets no later request wait for a reload.
   * A change no writer waits for (storage swapped under the server) is published as `here`, so that the
   * requests after it wait instead.
   */
  async publish(namespaceKey: string, scope?: ChangeScope, origin: 'own' | 'here' = 'own'): Promise<void> {
    const taking = this.deliver(namespaceKey, origin, scope);
    for (const relay of this.relays) relay(namespaceKey, scope);
    await Promise.allSettled(taking);
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
        // "<origin> <namespace key>[ <scope as JSON>]"
        const [from, namespaceKey, ...scope] = (message.payload ?? '').split(' ');
        if (!namespaceKey || from === origin) return;
        this.deliver(namespaceKey, 'elsewhere', parseScope(scope.join(' ')));
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
    const notify = (namespaceKey: string, scope?: ChangeScope) => {
      const scoped = scope && `${origin} ${namespaceKey} ${JSON.stringify(scope)}`;
      const payload = scoped && Buffer.byteLength(scoped) <= MAX_NOTIFY_BYTES ? scoped : `${origin} ${namespaceKey}`;
      pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]).catch(() => undefined);
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
   * With SQLite, which has no notifications: every `intervalMs`, reads the history's entries since the last
   * one seen and publishes what they changed as changes made elsewhere, so that a server learns of what
   * another process committed (`ensign import`, a restore). The entries of this process's own changes
   * (recordedHere) are passed over: their snapshots hold them already. Resolves once the history's end is
   * known; the returned function stops.
   */
  async followHistory(history: HistoryReader, intervalMs: number): Promise<() => void> {
    let seen = await history.lastId();
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const ours = new Set<number>();
    this.recordedByThisProcess = ours;
    const poll = async () => {
      for (;;) {
        const entries = await history.after(seen, HISTORY_PAGE);
        if (entries.length === 0) return;
        seen = entries[entries.length - 1].id;
        const touched = new TouchedScopes();
        for (const entry of entries) if (!ours.delete(entry.id)) touched.add(entry);
        // An entry noted after it was read (its transaction's publish came late) is not waited for.
        for (const id of ours) if (id <= seen) ours.delete(id);
        for (const [namespaceKey, scope] of touched.scopes()) this.deliver(namespaceKey, 'elsewhere', scope);
        if (entries.length < HISTORY_PAGE) return;
      }
    };
    const next = () => {
      if (stopped) return;
      // A failed read (the database busy a moment) is tried again at the next turn, from the same entry.
      timer = setTimeout(
        () =>
          poll()
            .catch(() => undefined)
            .finally(next),
        intervalMs,
      );
      timer.unref();
    };
    next();
    return () => {
      stopped = true;
      clearTimeout(timer);
      this.recordedByThisProcess = undefined;
    };
  }

  /**
   * In a node:cluster worker (server/workers.ts): sends each change to the primary, which passes it
   * to the other workers, and publishes theirs here. The returned function stops.
   */
  relayThroughCluster(): () => void {
    const fromPrimary = (message: unknown) => {
      if (isClusterChange(message)) this.deliver(message.ensignChange, 'here', message.scope);
    };
    const toPrimary = (namespaceKey: string, scope?: ChangeScope) => {
      const message: ClusterChange = { ensignChange: namespaceKey, ...(scope && { scope }) };
      process.send?.(message);
    };
    process.on('message', fromPrimary);
    this.relays.add(toPrimary);
    return () => {
      process.off('message', fromPrimary);
      this.relays.delete(toPrimary);
    };
  }

  private deliver(namespaceKey: string, origin: ChangeOrigin, scope?: ChangeScope): Promise<void>[] {
    const taking: Promise<void>[] = [];
    for (const listener of this.listeners) {
      const taken = listener(namespaceKey, origin, scope);
      if (taken) taking.push(taken);
    }
    return taking;
  }
}

/** How the history is read by followHistory: entries after an id, oldest first. */
export interface HistoryReader {
  lastId(): Promise<number>;
  after(id: number, limit: number): Promise<HistoryChange[]>;
}

export interface HistoryChange extends EntityChange {
  id: number;
}

const HISTORY_PAGE = 1000;

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: a larger scope is sent as the whole namespace. */
const MAX_NOTIFY_BYTES = 7900;

/** A scope relayed by another instance, or undefined (the whole namespace) if it is not one. */
function parseScope(text: string | undefined): ChangeScope | undefined {
  if (!text) return undefined;
  try {
    const scope = JSON.parse(text) as ChangeScope;
    const keys = (list: unknown) => Array.isArray(list) && list.every((key) => typeof key === 'string');
    return keys(scope?.flags) && keys(scope?.segments) ? scope : undefined;
  } catch {
    return undefined;
  }
}

/** A change as the cluster workers and their primary pass it on. */
export interface ClusterChange {
  ensignChange: string;
  scope?: ChangeScope;
}

export function isClusterChange(message: unknown): message is ClusterChange {
  return typeof message === 'object' && message !== null && typeof (message as ClusterChange).ensignChange === 'string';
}
