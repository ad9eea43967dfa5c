import { startServer, test, type RunningServer } from './fixtures.js';
import { open, type Server } from './console-support.js';
import { PAGES, SIZES, seedPages, shoot, THEMES } from './console-page-list.js';

// Screenshots of every console page at 1440x900 and 375x800, in light and dark, for a before/after
// comparison; taken only when SCREENS names the set:
//   SCREENS=after npx playwright test test/e2e/console-screens.spec.ts --workers 1
// shoots this build into test-results/screens/after/, and with SCREENS_URL=http://host:port it shoots
// the console already running there instead (an older build, say). An older console may lack a page or
// the content that marks it ready: the page is shot as it shows after a wait, and the test notes it.
// Playwright empties test-results/ when a run starts: move a finished set away before the next run.

const label = process.env.SCREENS;
test.skip(!label, 'set SCREENS=<label> to take the screenshots');
test.describe.configure({ timeout: 180_000 });

let target: Server;
let started: RunningServer | undefined;

test.beforeAll(async () => {
  const url = process.env.SCREENS_URL;
  if (url) target = { url };
  else target = started = await startServer();
  await seedPages(target);
});

test.afterAll(async () => {
  await started?.stop();
});

for (const [name, route, ready] of PAGES) {
  test(`${name}: screenshots at 1440 and 375 px in light and dark`, async ({ page }) => {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await open(page, target, route);
        const shown = await ready(page)
          .first()
          .waitFor({ timeout: 10_000 })
          .then(
            () => true,
            () => false,
          );
        if (!shown) test.info().annotations.push({ type: 'not ready', description: `${route} at ${size.width} px` });
        await shoot(page, `test-results/screens/${label}`, name, size, theme);
      }
    }
  });
}
