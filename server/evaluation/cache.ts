import { createHash } from 'node:crypto';
import {
  type CompiledFlag,
  type CompiledNamespace,
  type CompiledSegment,
  compileFlag,
  compileSegment,
  compileSnapshot,
  type SnapshotDocument,
  type SnapshotFlag,
  segmentCompiler,
} from '../../domain/evaluation/index.js';
import type { TargetingNamespace } from '../../domain/surveys/eligibility.js';
import { ALL_NAMESPACES, type ChangeFeed, type ChangeOrigin, type ChangeScope } from '../changes.js';
import { type LoadedNamespace, type NamespaceParts, type PartsRequest, PLACING_DEPTH } from './loader.js';
import type { Metrics } from '../metrics.js';
import { LayeredMap } from './layered-map.js';

/**
 * A namespace ready to serve: the compiled engine input and the snapshot document, serialised on
 * demand once per gate and kept as bytes while this revision lasts. A change makes a new snapshot,
 * from a full load or by `apply`ing the parts it changed to the one before.
 */
export class NamespaceSnapshot implements TargetingNamespace {
  readonly compiled: CompiledNamespace;
  private readonly serialised = new Map<SnapshotGate, Buffer>();
  /** Segments compiled so far, by key: those the flags use, and those survey targeting asked for. */
  private readonly compiledSegments: Map<string, CompiledSegment>;
  private hash?: string;

  constructor(
    readonly loaded: LoadedNamespace,
    compiled?: { flags: ReadonlyMap<string, CompiledFlag>; segments: Map<string, CompiledSegment> },
  ) {
    this.compiledSegments = compiled?.segments ?? new Map();
    this.compiled = compiled
      ? { key: loaded.document.namespace.key, flags: compiled.flags }
      : compileSnapshot(loaded.document, segmentCompiler(this.compiledSegments));
  }

  /**
   * This snapshot with `parts` read again in place of what they were; the flags read again are compiled
   * anew, the rest is shared. It equals a full load of the same data as long as every flag that uses a
   * changed segment was read again (see flagsUsing). Undefined when a full load is needed instead: the
   * namespace is gone, or a flag's place in the order is not known (a new flag whose nearest flags
   * before it are all new as well, a flag deleted and created again).
   */
  apply(parts: NamespaceParts): NamespaceSnapshot | undefined {
    if (!parts.exists) return undefined;
    const { document } = this.loaded;
    const before = this.compiled.flags;
    const flags: SnapshotFlag[] = [];
    for (const flag of document.flags) {
      if (!parts.flags.has(flag.key)) flags.push(flag);
      else {
        const now = parts.flags.get(flag.key);
        if (now && now.createdAt !== flag.createdAt) return undefined;
        if (now) flags.push(now);
      }
    }
    // New flags go after the nearest flag before them that is present; usually the last one.
    const added = new Set<string>();
    const present = (key: string) =>
      added.has(key) || (before.has(key) && (!parts.flags.has(key) || parts.flags.get(key) !== null));
    let appendedOnly = true;
    for (const [key, flag] of parts.flags) {
      if (!flag || before.has(key)) continue;
      const nearest = parts.before.get(key);
      const previous = nearest?.find(present);
      if (!nearest || (previous === undefined && nearest.length === PLACING_DEPTH)) return undefined;
      const at = previous === undefined ? 0 : lastIndexOfKey(flags, previous) + 1;
      if (at !== flags.length) appendedOnly = false;
      flags.splice(at, 0, flag);
      added.add(key);
    }

    const segments = new Map(this.loaded.segments);
    const compiledSegments = new Map(this.compiledSegments);
    for (const [key, segment] of parts.segments) {
      if (segment) segments.set(key, segment);
      else segments.delete(key);
      compiledSegments.delete(key);
    }
    const compile = segmentCompiler(compiledSegments);
    // The compiled flags keep the document's order (OFREP's bulk evaluation lists them so): the changed ones
    // replaced in place and the new ones at the end keep it, unless one was placed before others.
    let compiledFlags: ReadonlyMap<string, CompiledFlag>;
    if (appendedOnly) {
      compiledFlags = LayeredMap.changed(
        before,
        Array.from(parts.flags, ([key, flag]): [string, CompiledFlag | undefined] => [
          key,
          flag && (before.has(key) || added.has(key)) ? compileFlag(flag, compile) : undefined,
        ]),
      );
    } else {
      const rebuilt = new Map<string, CompiledFlag>();
      for (const flag of flags) {
        const previous = before.get(flag.key);
        rebuilt.set(flag.key, previous && !parts.flags.has(flag.key) ? previous : compileFlag(flag, compile));
      }
      compiledFlags = rebuilt;
    }
    return new NamespaceSnapshot(
      { exists: true, document: { namespace: document.namespace, flags }, segments },
      { flags: compiledFlags, segments: compiledSegments },
    );
  }

  /** The keys of the flags whose rules or rollouts use one of the segments. */
  flagsUsing(segmentKeys: ReadonlySet<string>): string[] {
    if (segmentKeys.size === 0) return [];
    const uses = (segments: { key: string }[]) => segments.some((segment) => segmentKeys.has(segment.key));
    return this.loaded.document.flags
      .filter(
        (flag) =>
          flag.rules.some((rule) => uses(rule.segments)) ||
          flag.rollouts.some((rollout) => rollout.segment && uses(rollout.segment.segments)),
      )
      .map((flag) => flag.key);
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
  /** What changed since the last load started: the next load reads only that, if it can. */
  pending: Pending;
  /** This process's writes waiting to be answered until the snapshot holds them, by the version they made. */
  writes: { version: number; taken: () => void }[];
}

/** Changed flags and segments, or `whole` when anything in the namespace may have changed. */
type Pending = { flags: Set<string>; segments: Set<string> } | 'whole';

const nothingPending = (): Pending => ({ flags: new Set(), segments: new Set() });

function merge(pending: Pending, scope: { flags: Iterable<string>; segments: Iterable<string> } | 'whole'): Pending {
  if (pending === 'whole' || scope === 'whole') return 'whole';
  for (const key of scope.flags) pending.flags.add(key);
  for (const key of scope.segments) pending.segments.add(key);
  return pending;
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

/** A load reads only what changed when that is at most this many flags; beyond, it reads the whole namespace. */
const MAX_PARTIAL_FLAGS = 500;

/**
 * Where the snapshots are read from: the Flipt store, over whichever database it serves at the time.
 * A source that can read parts of a namespace lets a change cost in proportion to what it changed.
 */
export interface NamespaceSource {
  loadNamespace(namespaceKey: string): Promise<LoadedNamespace>;
  loadNamespaceParts?(namespaceKey: string, request: PartsRequest): Promise<NamespaceParts>;
}

/**
 * The per-namespace snapshots, kept fresh without making evaluation wait on writes.
 *
 * - A write of this process is answered once the snapshot holds it (`publish` waits for the load that
 *   follows it), so the requests after it are answered from memory at once, and those during the load
 *   from the snapshot before it.
 * - A request is answered from memory unless a change made by a sibling worker process has not reached the
 *   snapshot (or the load of one of this process's writes failed); then it waits for a load that started
 *   after it arrived (the one in flight when that one started late enough, else the one that follows it) and
 *   takes that load's result, whatever changed since: that load already holds every change acknowledged
 *   before the request.
 * - Changes from other instances (LISTEN/NOTIFY) reload the namespace at once while the previous snapshot
 *   keeps answering, so they are seen within the time of one load.
 * - Loads of a namespace run one at a time: changes during a load cause one more load when it ends, however
 *   many they are, and the snapshot is always the newest one loaded.
 * - A load after changes that name their flags and segments reads only those (and the flags that use a
 *   changed segment) and applies them to the snapshot; other changes, or too many, read the whole namespace.
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
    this.unsubscribe = changes.subscribe((namespaceKey, origin, scope) => {
      const keys = namespaceKey === ALL_NAMESPACES ? [...this.entries.keys()] : [namespaceKey];
      const taking = keys.map((key) => this.changed(key, origin, scope ?? 'whole'));
      return taking.length === 1 ? taking[0] : undefined;
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
      entry = { version: 0, localVersion: 0, snapshotVersion: -1, pending: 'whole', writes: [] };
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
    for (const entry of this.entries.values()) answerWrites(entry, () => true);
    this.entries.clear();
  }

  /** Takes a change in; for a write of this process, resolves once the snapshot holds it. */
  private changed(namespaceKey: string, origin: ChangeOrigin, scope: ChangeScope | 'whole'): Promise<void> | undefined {
    const entry = this.entries.get(namespaceKey);
    if (!entry) return undefined;
    entry.version++;
    entry.pending = merge(entry.pending, scope);
    if (origin === 'here') entry.localVersion = entry.version;
    // A burst of changes (an import) starts one load, on the next turn; one in flight is followed by another.
    if (!entry.loading) {
      setImmediate(() => {
        if (entry.loading || entry.snapshotVersion >= entry.version || this.entries.get(namespaceKey) !== entry) return;
        this.metrics?.snapshots.reload.inc();
        // Errors surface to the next request, which retries.
        this.load(namespaceKey, entry).catch(() => undefined);
      });
    }
    if (origin !== 'own') return undefined;
    const { version } = entry;
    return new Promise((taken) => entry.writes.push({ version, taken }));
  }

  private load(namespaceKey: string, entry: Entry): Promise<NamespaceSnapshot> {
    const version = entry.version;
    const changed = entry.pending;
    entry.pending = nothingPending();
    const promise = this.read(namespaceKey, entry.snapshot, changed).then(
      (snapshot) => this.keep(namespaceKey, entry, snapshot, version),
      (error: unknown) => {
        // what this load would have read, the next one reads
        entry.pending = merge(entry.pending, changed);
        // The writes it held are answered; the requests after them wait for a load that holds them.
        answerWrites(entry, (write) => {
          if (write.version > version) return false;
          entry.localVersion = Math.max(entry.localVersion, write.version);
          return true;
        });
        throw error;
      },
    );
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

  /** The namespace after `changed`: only those parts read and applied to `base` when that can be done. */
  private async read(namespaceKey: string, base: NamespaceSnapshot | undefined, changed: Pending) {
    const { source } = this;
    if (base?.exists && changed !== 'whole' && source.loadNamespaceParts) {
      const flags = new Set([...changed.flags, ...base.flagsUsing(changed.segments)]);
      if (flags.size <= MAX_PARTIAL_FLAGS) {
        const placing = [...changed.flags].filter((key) => !base.compiled.flags.has(key));
        const parts = await source.loadNamespaceParts(namespaceKey, { flags, segments: changed.segments, placing });
        const applied = base.apply(parts);
        if (applied) {
          this.metrics?.snapshots.partial.inc();
          return applied;
        }
      }
    }
    return new NamespaceSnapshot(await source.loadNamespace(namespaceKey));
  }

  /** A load's result becomes the snapshot unless a newer one is already kept. */
  private keep(namespaceKey: string, entry: Entry, snapshot: NamespaceSnapshot, version: number): NamespaceSnapshot {
    if (version <= entry.snapshotVersion) return snapshot;
    if (entry.snapshot && !entry.snapshot.exists) this.missing--;
    if (!snapshot.exists && this.missing >= MAX_MISSING) {
      if (this.entries.get(namespaceKey) === entry) this.entries.delete(namespaceKey);
      answerWrites(entry, () => true);
      return snapshot;
    }
    entry.snapshot = snapshot;
    entry.snapshotVersion = version;
    if (!snapshot.exists) this.missing++;
    answerWrites(entry, (write) => write.version <= version);
    return snapshot;
  }
}

/** The index of the flag with this key, searched from the end, where new flags usually go; -1 if none. */
function lastIndexOfKey(flags: SnapshotFlag[], key: string): number {
  for (let i = flags.length - 1; i >= 0; i--) if (flags[i].key === key) return i;
  return -1;
}

/** Lets the writes `done` picks be answered. */
function answerWrites(entry: Entry, done: (write: Entry['writes'][number]) => boolean): void {
  entry.writes = entry.writes.filter((write) => {
    if (!done(write)) return true;
    write.taken();
    return false;
  });
}
