import { test, expect } from './fixtures.js';
import { survey } from './surveys-support.js';

// The demo page runs on the console's origin: a link to it must never run another origin's script or a
// data:/javascript: URL, whatever its query string names; the page still works with its own scripts.
test('the demo page ignores scripts named in its URL from elsewhere, and its CSP blocks them too', async ({
  page,
  server,
}) => {
  const elsewhere: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (!url.startsWith(server.url)) {
      elsewhere.push(url);
      return route.abort();
    }
    return route.continue();
  });
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      ),
    );
  });

  const attacks = new URLSearchParams({
    loader: 'data:text/javascript,window.pwned=1',
    renderer: 'https://evil.example/renderer.js',
    rendererUrl: 'javascript:window.pwned=2',
  });
  const response = await page.goto(`${server.url}/demo/?${attacks}`);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  // The welcome survey shows through the server's own loader and renderer.
  await expect(survey(page).getByText('Welcome to the Ensign demo')).toBeVisible();
  await expect(page.locator('#log')).toContainText('loader ignored: scripts load only from');
  await expect(page.locator('#log')).toContainText('renderer ignored: scripts load only from');
  await expect(page.locator('#log')).toContainText('rendererUrl ignored: scripts load only from');
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  expect(elsewhere).toEqual([]);
  // Nothing the page itself does breaks its policy.
  expect(violations).toEqual([]);
});
