// Byte budgets of the built bundles, checked after `npm run build` (npm test runs this layer then).
import { describe, expect, test } from 'vitest';
import { BUDGETS, type Budgeted, measureBudgeted } from '../../bench/support/sizes.js';

const sizes = measureBudgeted();

describe('gzipped bundle sizes stay within their budgets', () => {
  for (const name of Object.keys(BUDGETS) as Budgeted[]) {
    test(`${name} (${BUDGETS[name].path}): at most ${BUDGETS[name].budget} B`, () => {
      expect(sizes[name], `${name} is ${sizes[name]} B gzipped, budget ${BUDGETS[name].budget} B`).toBeLessThanOrEqual(
        BUDGETS[name].budget,
      );
    });
  }
});
