import { describe, expect, it } from 'vitest';
import { shuffledSpecs } from '../e2e-order/shuffle.js';

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
});
