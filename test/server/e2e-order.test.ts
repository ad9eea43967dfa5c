import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shuffledSpecs, shuffledTestDir } from '../e2e-order/shuffle.js';

// The end-to-end suite's shuffled order (test/e2e-order/shuffle.ts): `npm test` runs a new one each time.
describe('the shuffled order of the end-to-end specs', () => {
  const specs = Array.from({ length: 40 }, (_, i) => `spec-${String(i).padStart(2, '0')}.spec.ts`);

  it('is a permutation of the specs, the same for the same seed whatever the order given', () => {
    const order = shuffledSpecs(specs, 42);
    expect([...order].sort()).toEqual(specs);
    expect(shuffledSpecs([...specs].reverse(), 42)).toEqual(order);
  });

  it('differs between seeds and from the alphabetical order', () => {
    const orders = new Set([1, 2, 3, 4, 5].map((seed) => shuffledSpecs(specs, seed).join()));
    expect(orders.size).toBe(5);
    expect(orders.has(specs.join())).toBe(false);
  });

  it('puts the specs to start first before the others, each group in the order the seed gives it', () => {
    const first = [specs[3], specs[17], specs[30]];
    const order = shuffledSpecs(specs, 42, first);
    expect([...order].sort()).toEqual(specs);
    expect([...order.slice(0, 3)].sort()).toEqual([...first].sort());
    const alone = shuffledSpecs(specs, 42);
    expect(order.slice(0, 3)).toEqual(alone.filter((spec) => first.includes(spec)));
    expect(order.slice(3)).toEqual(alone.filter((spec) => !first.includes(spec)));
    const firsts = new Set([1, 2, 3, 4, 5, 6].map((seed) => shuffledSpecs(specs, seed, first).slice(0, 3).join()));
    expect(firsts.size).toBeGreaterThan(1);
  });

  it('starts first the specs whose source is marked so', () => {
    const specDir = mkdtempSync(join(tmpdir(), 'ensign-specs-'));
    try {
      for (const spec of specs.slice(0, 6))
        writeFileSync(join(specDir, spec), spec === specs[4] ? '// e2e-order: starts first (long)\n' : '');
      const dir = shuffledTestDir(specDir, 7);
      const written = readdirSync(dir).sort();
      expect(written[0]).toBe(`000-${specs[4]}`);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      rmSync(specDir, { recursive: true, force: true });
    }
  });

  it('writes the folder again for the same seed without removing a file another process reads', () => {
    const specDir = mkdtempSync(join(tmpdir(), 'ensign-specs-'));
    const seed = 987_654_321;
    try {
      for (const spec of specs.slice(0, 5)) writeFileSync(join(specDir, spec), '');
      const dir = shuffledTestDir(specDir, seed);
      const written = readdirSync(dir).sort();
      expect(written).toHaveLength(5);
      const inodes = written.map((name) => statSync(join(dir, name)).ino);
      // Again, as each worker does with the same config: the very same files, never removed meanwhile.
      expect(shuffledTestDir(specDir, seed)).toBe(dir);
      expect(readdirSync(dir).sort()).toEqual(written);
      expect(written.map((name) => statSync(join(dir, name)).ino)).toEqual(inodes);
      // A spec removed since: no file imports it any more.
      rmSync(join(specDir, specs[4]));
      shuffledTestDir(specDir, seed);
      const kept = readdirSync(dir);
      expect(kept).toHaveLength(4);
      for (const name of kept) {
        expect(readFileSync(join(dir, name), 'utf8')).toMatch(/^import '.*\.spec\.ts';\n$/);
        expect(readFileSync(join(dir, name), 'utf8')).not.toContain(specs[4]);
      }
      rmSync(dir, { recursive: true, force: true });
    } finally {
      rmSync(specDir, { recursive: true, force: true });
    }
  });
});
