// e2e-order: starts first (40 visitors)
// Feedback by variant, as a team would use it: a 50/50 flag, a survey linked to variant b, 40 identified
// visitors on another origin (half through Ensign's loader, half through the real @formbricks/js 1.6.5).
// Exactly the visitors /evaluate/v1 gives b see it; their answers appear per variant on the flag's
// Feedback tab; the eligibility checks count in no evaluation metric.
import { api, unique } from './console-support.js';
import { expect, test } from './fixtures.js';
import { fiftyFiftyCheckout, hostPageUrl, startHostSite, survey } from './surveys-support.js';

const VISITORS = 40;
/** How many visitors are on the site at once. */
const CONCURRENT_VISITORS = 4;

const evaluationsCounted = async (url: string) =>
  (await (await fetch(`${url}/metrics`)).text())
    .split('\n')
    .filter((line) => line.startsWith('flipt_evaluations_requests_total'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);

test('a survey linked to variant b reaches exactly the b visitors, and the Feedback tab reads their answers', async ({
  page,
  server,
  browser,
}) => {
  test.setTimeout(300_000);
  const ns = unique('feedback');
  const production = await fiftyFiftyCheckout(server, ns);
  const created = await api<{ id: string }>(server, 'POST', production.surveys, {
    name: 'Checkout feedback',
    status: 'inProgress',
    triggers: ['New Session'],
    questions: [{ id: 'nps', type: 'nps', headline: 'How likely are you to recommend the checkout?', required: true }],
    thankYouCard: { enabled: true, headline: 'Thank you!' },
    linkedFlag: { flagKey: 'checkout', variants: ['b'] },
  });

  const site = await startHostSite();
  const evaluationsBefore = await evaluationsCounted(server.url);
  const shown = new Map<string, number | undefined>();
  /** One visitor in a browser context of its own: the survey shows, and is answered, or it does not show. */
  const visit = async (i: number) => {
    const userId = `visitor-${i}`;
    const realFormbricks = i % 2 === 1;
    const context = await browser.newContext();
    try {
      const visitor = await context.newPage();
      const sync = visitor.waitForResponse((response) => /\/in-app\/sync\//.test(response.url()));
      await visitor.goto(
        hostPageUrl(site, server.url, {
          environmentId: production.environmentId,
          userId,
          ...(realFormbricks && {
            loader: `${site.origin}/vendor/formbricks-js.umd.js`,
            renderer: `${server.url}/api/js?module=surveys&format=umd`,
          }),
        }),
      );
      const synced = ((await (await sync).json()).data.surveys as { id: string }[]).some((s) => s.id === created.id);
      const dialog = survey(visitor);
      if (synced) {
        const score = i % 11;
        await expect(dialog.getByText('How likely are you to recommend the checkout?')).toBeVisible();
        // The answer is sent in the background: the context closes only once the server has it.
        const stored = visitor.waitForResponse(
          (response) =>
            /\/api\/v1\/client\/[^/]+\/responses/.test(response.url()) &&
            response.request().method() !== 'GET' &&
            response.request().postDataJSON()?.finished === true,
        );
        await dialog.getByRole('button', { name: String(score), exact: true }).click();
        // Seen once in a CI run (not reproduced since): say what the visitor saw instead.
        await expect(dialog.getByText('Thank you!'))
          .toBeVisible()
          .catch(async (error) => {
            const card = await dialog.textContent({ timeout: 1000 }).catch(() => '(no dialog)');
            const log = await visitor.locator('#log').textContent({ timeout: 1000 });
            const serverErrors = server
              .output()
              .split('\n')
              .filter((line) => /"level":[45]0|"statusCode":[45]\d\d/.test(line));
            throw new Error(
              `${userId} saw no thank-you card. The dialog reads: ${card}\nThe page logged: ${log}\nServer warnings and errors: ${serverErrors.slice(-5).join('\n')}`,
              { cause: error },
            );
          });
        expect((await stored).ok(), userId).toBe(true);
        shown.set(userId, score);
      } else {
        await expect(visitor.locator('#log')).toContainText('init done');
        await expect(dialog).toHaveCount(0);
        shown.set(userId, undefined);
      }
    } finally {
      await context.close();
    }
  };
  try {
    // Visitors come a few at a time, as on a site (each one mostly waits on the network and idle time).
    let next = 0;
    const arrivals = async () => {
      while (next < VISITORS) await visit(next++);
    };
    await Promise.all(Array.from({ length: CONCURRENT_VISITORS }, arrivals));
  } finally {
    await site.close();
  }
  expect(shown.size).toBe(VISITORS);
  // Deciding who sees the survey evaluated the flag 40 times, and none of it is counted.
  expect(await evaluationsCounted(server.url)).toBe(evaluationsBefore);

  const scores: number[] = [];
  for (const [userId, score] of shown) {
    const answer = await api<{ variantKey: string }>(server, 'POST', '/evaluate/v1/variant', {
      namespaceKey: ns,
      flagKey: 'checkout',
      entityId: userId,
      context: {},
    });
    expect(score !== undefined, userId).toBe(answer.variantKey === 'b');
    if (score !== undefined) scores.push(score);
  }
  expect(scores.length).toBeGreaterThan(5);
  const promoters = scores.filter((score) => score >= 9).length;
  const detractors = scores.filter((score) => score <= 6).length;
  const nps = Math.round(((promoters - detractors) / scores.length) * 10000) / 100;

  await page.goto(`${server.url}/#/namespaces/${ns}/flags/checkout/feedback`);
  const card = page.getByRole('article', { name: 'Checkout feedback' });
  const row = card.getByRole('row', { name: /^b\b/ });
  await expect(row.getByRole('cell').nth(1)).toHaveText(String(scores.length));
  await expect(row.getByRole('cell').nth(3)).toContainText(String(nps));

  // A new survey started from the tab comes linked to the flag, every value ticked.
  await page.getByRole('link', { name: 'New survey for this flag' }).click();
  await page.getByRole('button', { name: 'New Survey' }).click();
  await expect(page.getByRole('dialog', { name: 'New Survey' })).toContainText('Linked to flag checkout (a, b)');
  await page.getByRole('button', { name: /Net Promoter Score/ }).click();
  await expect(page.getByLabel('Linked flag')).toHaveValue('checkout');
  await expect(page.getByRole('checkbox', { name: 'a', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'b', exact: true })).toBeChecked();
});
