import { expect, test } from './fixtures.js';
import { expectAccessible, open } from './console-support.js';
import { PAGES, SIZES, seedPages, THEMES } from './console-page-list.js';

// Every console page, in light and dark, opened at 1440x900 and 375x800: it shows its data in the
// theme's colour scheme, and axe-core finds no serious or critical violation. (Screenshots of the same
// pages are taken by console-screens.spec.ts, with SCREENS=<label>: nothing here reads one.)

test.beforeAll(async ({ server }) => {
  await seedPages(server);
});

for (const [name, route, ready] of PAGES) {
  test(`${name}: no serious axe violation in light and dark, at 1440 and 375 px`, async ({ page, server }) => {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await open(page, server, route);
        await expect(ready(page).first()).toBeVisible();
        await expect(page.locator('html')).toHaveCSS('color-scheme', theme);
        if (size.width === 1440) await expectAccessible(page);
      }
    }
  });
}
