import { describe, expect, it } from 'vitest';
import { LayeredMap } from '../../../server/evaluation/layered-map.js';

/** A deterministic generator (mulberry32), so a failure names a seed that repeats it. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('LayeredMap', () => {
  it('reads, counts and iterates as a Map copied and changed the same way, over generated changes', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const start = Array.from({ length: Math.floor(next() * 200) }, (_, i): [string, number] => [`k${i}`, i]);
      let expected = new Map(start);
      let layered: ReadonlyMap<string, number> = new Map(start);
      for (let round = 0; round < 60; round++) {
        const changes: [string, number | undefined][] = [];
        for (let c = Math.floor(next() * 6); c > 0; c--) {
          // keys from a range wider than the start: updates, deletes, new keys and keys deleted and set again
          const key = `k${Math.floor(next() * 260)}`;
          changes.push([key, next() < 0.3 ? undefined : round * 1000 + c]);
        }
        expected = new Map(expected);
        for (const [key, value] of changes) {
          if (value === undefined) expected.delete(key);
          else expected.set(key, value);
        }
        layered = LayeredMap.changed(layered, changes);
        const where = `seed ${seed}, round ${round}`;
        expect([...layered], where).toEqual([...expected]);
        expect(layered.size, where).toBe(expected.size);
        const keys = Array.from({ length: 260 }, (_, k) => `k${k}`);
        expect(
          keys.map((key) => [layered.get(key), layered.has(key)]),
          where,
        ).toEqual(keys.map((key) => [expected.get(key), expected.has(key)]));
      }
    }
  });

  it('leaves the map it was made from as it was', () => {
    const base = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const first = LayeredMap.changed(base, [['c', 3]]);
    const second = LayeredMap.changed(first, [
      ['a', undefined],
      ['d', 4],
    ]);
    expect([...base]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect([...first.keys()]).toEqual(['a', 'b', 'c']);
    expect([...second.values()]).toEqual([2, 3, 4]);
  });
});
