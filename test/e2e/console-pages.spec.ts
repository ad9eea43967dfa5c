import { expect, test } from './fixtures.js';
import { expectAccessible, open } from './console-support.js';
import { PAGES, SIZES, seedPages, shoot, THEMES } from './console-page-list.js';

// Every console page, in light and dark: axe-core finds no serious or critical violation, and a
// screenshot at 1440x900 and 375x800 is saved to test-results/screenshots/ (kept as a test artifact).

test.beforeAll(async ({ server }) => {
  await seedPages(server);
});

for (const [name, route, ready] of PAGES) {
  test(`${name}: no serious axe violation in light and dark, screenshots at 1440 and 375 px`, async ({
    page,
    server,
  }) => {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await open(page, server, route);
        await expect(ready(page).first()).toBeVisible();
        await expect(page.locator('html')).toHaveCSS('color-scheme', theme);
        if (size.width === 1440) await expectAccessible(page);
        await shoot(page, 'test-results/screenshots', name, size, theme);
      }
    }
  });
}
