const GONE: unique symbol = Symbol('gone');

/** How many changes a layer holds before they are folded into a map of its own, at least. */
const MIN_FOLD = 64;

/**
 * A map made of another one and changes to it, without copying the other: a snapshot's `apply` makes one per
 * change, and copying a Map of 10,000 compiled flags costs milliseconds, where this costs what changed.
 * Reads look at the changes first. Iteration keeps the base's order, changed entries in their place and new
 * ones at the end, as a Map that was copied and then changed would. Once the changes outgrow a sixteenth of
 * the base, or a key the base held comes back after it was deleted (it belongs at the end now), they are
 * folded into a plain Map.
 */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly changes: ReadonlyMap<K, V | typeof GONE>,
    readonly size: number,
  ) {}

  /** `map` with `changes` made: a value sets its key, undefined deletes it. */
  static changed<K, V>(map: ReadonlyMap<K, V>, changes: Iterable<[K, V | undefined]>): ReadonlyMap<K, V> {
    const layered = map instanceof LayeredMap;
    const base: ReadonlyMap<K, V> = layered ? map.base : map;
    const merged = new Map<K, V | typeof GONE>(layered ? map.changes : undefined);
    let size = map.size;
    // The keys this batch adds, in the order a Map would end with them (at the end, the last set last).
    const added = new Set<K>();
    let returning = false;
    const present = (key: K) => (merged.has(key) ? merged.get(key) !== GONE : base.has(key));
    for (const [key, value] of changes) {
      const had = present(key);
      if (value === undefined) {
        if (had) size--;
        merged.set(key, GONE);
        added.delete(key);
        continue;
      }
      if (!had) {
        size++;
        // A key set again after it was deleted goes at the end: among the changes by moving it there, past
        // the base's keys by folding.
        merged.delete(key);
        added.add(key);
        if (base.has(key)) returning = true;
      }
      merged.set(key, value);
    }
    const result = new LayeredMap(base, merged, size);
    return returning || merged.size > Math.max(MIN_FOLD, base.size / 16) ? result.folded(added) : result;
  }

  get(key: K): V | undefined {
    if (!this.changes.has(key)) return this.base.get(key);
    const changed = this.changes.get(key);
    return changed === GONE ? undefined : changed;
  }

  has(key: K): boolean {
    return this.changes.has(key) ? this.changes.get(key) !== GONE : this.base.has(key);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) {
      if (!this.changes.has(key)) yield [key, value];
      else {
        const changed = this.changes.get(key) as V | typeof GONE;
        if (changed !== GONE) yield [key, changed];
      }
    }
    for (const [key, changed] of this.changes) if (changed !== GONE && !this.base.has(key)) yield [key, changed];
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  /** A plain Map of the same entries, with the `last` keys, in their order, at the end. */
  private folded(last: Set<K>): Map<K, V> {
    const map = new Map<K, V>();
    for (const [key, value] of this.entries()) if (!last.has(key)) map.set(key, value);
    for (const key of last) map.set(key, this.get(key) as V);
    return map;
  }
}
