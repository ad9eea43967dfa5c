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
  /** Bumped by every change: a load started under an older generation is not kept. */
  generation: number;
  snapshot?: NamespaceSnapshot;
  pending?: Promise<NamespaceSnapshot>;
  /** An eager reload is queued (a burst of writes, such as an import, causes one reload). */
  queued?: boolean;
}

/** At most this many namespaces that do not exist are remembered (requests can name any key). */
const MAX_MISSING = 1000;

/** Where the snapshots are read from: the Flipt store, over whichever database it serves at the time. */
export interface NamespaceSource {
  loadNamespace(namespaceKey: string): Promise<LoadedNamespace>;
}

/**
 * The per-namespace snapshots. A change to a namespace drops its snapshot and reloads it right after
 * (once per burst of changes), so requests find it in memory again; requests that arrive meanwhile
 * start or wait for the reload and never see the data from before the change.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();
  private missing = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly source: NamespaceSource,
    changes: ChangeFeed,
    private readonly metrics?: Metrics,
  ) {
    this.unsubscribe = changes.subscribe((namespaceKey) => {
      if (namespaceKey === ALL_NAMESPACES) for (const key of [...this.entries.keys()]) this.invalidate(key);
      else this.invalidate(namespaceKey);
    });
  }

  /** The snapshot, synchronously when it is in memory. */
  get(namespaceKey: string): NamespaceSnapshot | Promise<NamespaceSnapshot> {
    let entry = this.entries.get(namespaceKey);
    if (entry?.snapshot) {
      this.metrics?.snapshots.hit.inc();
      return entry.snapshot;
    }
    this.metrics?.snapshots.miss.inc();
    if (!entry) {
      entry = { generation: 0 };
      this.entries.set(namespaceKey, entry);
    }
    return entry.pending ?? this.reload(namespaceKey, entry);
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
  }

  private invalidate(namespaceKey: string): void {
    const entry = this.entries.get(namespaceKey);
    if (!entry) return;
    entry.generation++;
    if (entry.snapshot && !entry.snapshot.exists) this.missing--;
    entry.snapshot = undefined;
    entry.pending = undefined;
    if (entry.queued) return;
    entry.queued = true;
    setImmediate(() => {
      entry.queued = false;
      if (entry.snapshot || entry.pending || this.entries.get(namespaceKey) !== entry) return;
      this.metrics?.snapshots.reload.inc();
      // Errors surface to the next request, which retries.
      this.reload(namespaceKey, entry).catch(() => undefined);
    });
  }

  private reload(namespaceKey: string, entry: Entry): Promise<NamespaceSnapshot> {
    const generation = entry.generation;
    const pending: Promise<NamespaceSnapshot> = this.source.loadNamespace(namespaceKey).then(
      (loaded) => {
        if (entry.generation !== generation || this.entries.get(namespaceKey) !== entry) return this.get(namespaceKey);
        const snapshot = new NamespaceSnapshot(loaded);
        entry.pending = undefined;
        if (!snapshot.exists && this.missing >= MAX_MISSING) this.entries.delete(namespaceKey);
        else {
          entry.snapshot = snapshot;
          if (!snapshot.exists) this.missing++;
        }
        return snapshot;
      },
      (error: unknown) => {
        if (entry.pending === pending) entry.pending = undefined;
        throw error;
      },
    );
    entry.pending = pending;
    return pending;
  }
}
