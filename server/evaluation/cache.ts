import { createHash } from 'node:crypto';
import {
  type CompiledNamespace,
  type CompiledSegment,
  compileSegment,
  compileSnapshot,
  type SnapshotDocument,
} from '../../domain/evaluation/index.js';
import type { TargetingNamespace } from '../../domain/surveys/eligibility.js';
import { ALL_NAMESPACES, type ChangeFeed } from '../changes.js';
import type { LoadedNamespace } from './loader.js';
import type { Metrics } from '../metrics.js';

/**
 * A namespace ready to serve: the compiled engine input and the snapshot document, serialised on
 * demand once per gate and kept as bytes while this revision lasts (a change drops the whole snapshot).
 */
export class NamespaceSnapshot implements TargetingNamespace {
  readonly compiled: CompiledNamespace;
  private readonly serialised = new Map<SnapshotGate, Buffer>();
  private readonly compiledSegments = new Map<string, CompiledSegment>();
  private hash?: string;

  constructor(readonly loaded: LoadedNamespace) {
    this.compiled = compileSnapshot(loaded.document);
  }

  /** A segment of the namespace compiled for matching on its own, when first asked for (survey targeting). */
  segment(key: string): CompiledSegment | undefined {
    let compiled = this.compiledSegments.get(key);
    if (compiled === undefined) {
      const source = this.loaded.segments.get(key);
      if (!source) return undefined;
      compiled = compileSegment(source);
      this.compiledSegments.set(key, compiled);
    }
    return compiled;
  }

  get exists(): boolean {
    return this.loaded.exists;
  }

  /**
   * SHA-1 (hex) of the document's bytes: it changes whenever the document does, and every server
   * instance on the same database computes the same value. Computed when first asked for, so a server
   * that only evaluates never serialises the document.
   */
  get etag(): string {
    this.hash ??= createHash('sha1').update(this.json('current')).digest('hex');
    return this.hash;
  }

  /** The document's JSON, in UTF-8, as a client of the given gate may see it. */
  json(gate: SnapshotGate): Buffer {
    let bytes = this.serialised.get(gate);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(gateDocument(this.loaded.document, gate)));
      this.serialised.set(gate, bytes);
    }
    return bytes;
  }
}

/**
 * What a client's `X-Flipt-Accept-Server-Version` lets it see: before 1.38.0 ENTITY_ID constraints
 * travel as UNKNOWN, before 1.47.0 flags carry no default variant.
 */
export type SnapshotGate = 'current' | 'no-default-variant' | 'no-entity-id';

function gateDocument(document: SnapshotDocument, gate: SnapshotGate): SnapshotDocument {
  if (gate === 'current') return document;
  return {
    namespace: document.namespace,
    flags: document.flags.map(({ defaultVariant, ...flag }) => {
      if (gate === 'no-default-variant') return flag;
      const hide = <T extends { segments: SnapshotDocument['flags'][number]['rules'][number]['segments'] }>(
        owner: T,
      ): T => ({
        ...owner,
        segments: owner.segments.map((segment) => ({
          ...segment,
          constraints: segment.constraints.map((c) =>
            c.type === 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE'
              ? { ...c, type: 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE' as const }
              : c,
          ),
        })),
      });
      return {
        ...flag,
        rules: flag.rules.map(hide),
        rollouts: flag.rollouts.map((r) => (r.segment ? { ...r, segment: hide(r.segment) } : r)),
      };
    }),
  };
}

interface Entry {
  /** Changes published for the namespace so far. */
  version: number;
  /** The version of the last change made on this instance (a request that follows it must see it). */
  localVersion: number;
  snapshot?: NamespaceSnapshot;
  /** The version the snapshot's load started at: it holds every change up to that one. */
  snapshotVersion: number;
  /** The load in flight, with the version it started at. */
  loading?: { version: number; promise: Promise<NamespaceSnapshot> };
  /** Requests that need a newer load than the one in flight wait for the one that follows it. */
  following?: Following;
}

/** A load yet to start, and how to hand its waiters the load once it starts. */
interface Following {
  promise: Promise<NamespaceSnapshot>;
  start(load: Promise<NamespaceSnapshot>): void;
}

function following(): Following {
  let start!: Following['start'];
  const promise = new Promise<NamespaceSnapshot>((resolve) => {
    start = resolve;
  });
  return { promise, start };
}

/** How long after a failed reload the next one starts, when nothing else starts one. */
const RELOAD_RETRY_MS = 1000;

/** At most this many namespaces that do not exist are remembered (requests can name any key). */
const MAX_MISSING = 1000;

/** Where the snapshots are read from: the Flipt store, over whichever database it serves at the time. */
export interface NamespaceSource {
  loadNamespace(namespaceKey: string): Promise<LoadedNamespace>;
}

/**
 * The per-namespace snapshots, kept fresh without making evaluation wait on writes for long.
 *
 * - A request is answered from memory unless a change made on this instance has not reached the snapshot; then
 *   it waits for a load that started after it arrived (the one in flight when that one started late enough,
 *   else the one that follows it) and takes that load's result, whatever changed since: that load already
 *   holds every change acknowledged before the request.
 * - Changes from other instances (LISTEN/NOTIFY) reload the namespace at once while the previous snapshot
 *   keeps answering, so they are seen within the time of one load.
 * - Loads of a namespace run one at a time: changes during a load cause one more load when it ends, however
 *   many they are, and the snapshot is always the newest one loaded.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();
  private missing = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly source: NamespaceSource,
    changes: Pick<ChangeFeed, 'subscribe'>,
    private readonly metrics?: Metrics,
  ) {
    this.unsubscribe = changes.subscribe((namespaceKey, origin) => {
      const keys = namespaceKey === ALL_NAMESPACES ? [...this.entries.keys()] : [namespaceKey];
      for (const key of keys) this.changed(key, origin === 'here');
    });
  }

  /** The snapshot, synchronously when the one in memory holds every change made here. */
  get(namespaceKey: string): NamespaceSnapshot | Promise<NamespaceSnapshot> {
    let entry = this.entries.get(namespaceKey);
    if (entry?.snapshot && entry.snapshotVersion >= entry.localVersion) {
      this.metrics?.snapshots.hit.inc();
      return entry.snapshot;
    }
    this.metrics?.snapshots.miss.inc();
    if (!entry) {
      entry = { version: 0, localVersion: 0, snapshotVersion: -1 };
      this.entries.set(namespaceKey, entry);
    }
    const { loading } = entry;
    if (!loading) return this.load(namespaceKey, entry);
    if (loading.version >= entry.version) return loading.promise;
    entry.following ??= following();
    return entry.following.promise;
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
  }

  private changed(namespaceKey: string, local: boolean): void {
    const entry = this.entries.get(namespaceKey);
    if (!entry) return;
    entry.version++;
    if (local) entry.localVersion = entry.version;
    // A burst of changes (an import) starts one load, on the next turn; one in flight is followed by another.
    if (entry.loading) return;
    setImmediate(() => {
      if (entry.loading || entry.snapshotVersion >= entry.version || this.entries.get(namespaceKey) !== entry) return;
      this.metrics?.snapshots.reload.inc();
      // Errors surface to the next request, which retries.
      this.load(namespaceKey, entry).catch(() => undefined);
    });
  }

  private load(namespaceKey: string, entry: Entry): Promise<NamespaceSnapshot> {
    const version = entry.version;
    const promise = this.source
      .loadNamespace(namespaceKey)
      .then((loaded) => this.keep(namespaceKey, entry, loaded, version));
    entry.loading = { version, promise };
    const next = () => {
      entry.loading = undefined;
      const waiting = entry.following;
      entry.following = undefined;
      if (this.entries.get(namespaceKey) !== entry) {
        waiting?.start(Promise.reject(new Error(`the snapshot of namespace "${namespaceKey}" was dropped`)));
        return;
      }
      if (waiting || entry.version > version) {
        const started = this.load(namespaceKey, entry);
        started.catch(() => undefined);
        waiting?.start(started);
      }
    };
    promise.then(next, () => {
      next();
      // A snapshot left stale by a failed reload (the database away a moment) is tried again, not served for ever.
      setTimeout(() => {
        if (entry.loading || entry.snapshotVersion >= entry.version || this.entries.get(namespaceKey) !== entry) return;
        this.load(namespaceKey, entry).catch(() => undefined);
      }, RELOAD_RETRY_MS).unref();
    });
    return promise;
  }

  /** A load's result becomes the snapshot unless a newer one is already kept. */
  private keep(namespaceKey: string, entry: Entry, loaded: LoadedNamespace, version: number): NamespaceSnapshot {
    const snapshot = new NamespaceSnapshot(loaded);
    if (version <= entry.snapshotVersion) return snapshot;
    if (entry.snapshot && !entry.snapshot.exists) this.missing--;
    if (!snapshot.exists && this.missing >= MAX_MISSING) {
      if (this.entries.get(namespaceKey) === entry) this.entries.delete(namespaceKey);
      return snapshot;
    }
    entry.snapshot = snapshot;
    entry.snapshotVersion = version;
    if (!snapshot.exists) this.missing++;
    return snapshot;
  }
}
