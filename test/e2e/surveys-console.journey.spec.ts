// e2e-order: starts first (a whole operator journey)
// An operator's journey through the console's Surveys area, from a new namespace to a survey on another
// origin's page, with Ensign's loader and with the real @formbricks/js 1.6.5: no YAML, no curl, no restart.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { test, expect, freePort } from './fixtures.js';
import { expectAccessible, unique } from './console-support.js';
import { survey } from './surveys-support.js';

/** The customer's site: /pricing holds the snippet the operator copied (with the visitor's id and plan added). */
async function startSite(snippets: Record<string, string>, rendererUrl: string) {
  const port = await freePort();
  const vendor = readFileSync('node_modules/@formbricks/js/dist/index.umd.js');
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/vendor/formbricks-js.umd.js') {
      response.writeHead(200, { 'content-type': 'application/javascript' }).end(vendor);
      return;
    }
    const snippet = snippets[url.searchParams.get('with') ?? ''];
    if (url.pathname !== '/pricing' || !snippet) {
      response.writeHead(404).end();
      return;
    }
    const visitor = url.searchParams.get('visitor') ?? 'anonymous';
    const withVisitor = snippet.replace(
      /apiHost: '([^']+)' \}/,
      `apiHost: '$1', userId: '${visitor}', attributes: { plan: 'pro' } }`,
    );
    // @formbricks/js fetches its renderer from unpkg unless the page has one: this page offers Ensign's.
    const renderer = url.searchParams.get('with') === 'formbricks' ? `<script src="${rendererUrl}"></script>` : '';
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html lang="en"><head><title>Pricing</title>${renderer}</head><body><h1>Pricing</h1>${withVisitor}</body></html>`,
      );
  });
  await new Promise<void>((done) => server.listen(port, 'localhost', done));
  return { origin: `http://localhost:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

async function answerNps(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const dialog = survey(page);
  await expect(dialog.getByText('How likely are you to recommend us to a friend or colleague?')).toBeVisible();
  await dialog.getByRole('button', { name: '9', exact: true }).click();
  await dialog.getByRole('textbox').fill('Fair prices');
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thank you!')).toBeVisible();
  await context.close();
}

async function createNamespace(page: Page, serverUrl: string, name: string) {
  await page.goto(`${serverUrl}/#/settings/namespaces`);
  await page.getByRole('button', { name: 'New Namespace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Namespace' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
}

test('an operator creates environments, an NPS survey with a page trigger and an attribute filter, publishes it to a site and pauses it', async ({
  page,
  server,
  browser,
}) => {
  test.setTimeout(240_000);
  const namespace = unique('shop');
  await createNamespace(page, server.url, namespace);

  await page.goto(`${server.url}/#/namespaces/${namespace}/surveys`);
  await page.getByRole('button', { name: 'Create survey environments' }).click();
  const environments = page.getByRole('navigation', { name: 'Survey environment' });
  await expect(environments.getByRole('link', { name: 'Production' })).toHaveAttribute('aria-current', 'page');
  await expect(environments.getByRole('link', { name: 'Development' })).toBeVisible();
  const snippetOf = async (name: string) => {
    await page.getByRole('button', { name, exact: true }).click();
    return (await page.locator('.snippets pre').textContent()) ?? '';
  };

  // The new environment's survey list leads through set-up first: the snippet, then the first sign of the widget.
  const guide = page.getByRole('region', { name: "Put this environment's surveys on your site" });
  await expect(guide.getByRole('status')).toHaveText('Not seen on a site yet');
  await expectAccessible(page);
  const setupSnippet = await snippetOf('@formbricks/js 5 script');
  expect(setupSnippet).toContain(`${server.url}/js/formbricks.umd.cjs`);
  expect(setupSnippet).toContain(`formbricks.setup({ appUrl: '${server.url}', environmentId: '`);
  const firstSite = await startSite({ setup: setupSnippet }, `${server.url}/api/js?module=surveys&format=umd`);
  try {
    const context = await browser.newContext();
    const visit = await context.newPage();
    const synced = visit.waitForResponse((response) => /\/in-app\/sync\?version=5\./.test(response.url()));
    await visit.goto(`${firstSite.origin}/pricing?with=setup`);
    await synced;
    await context.close();
  } finally {
    await firstSite.close();
  }
  await expect(guide.getByRole('status')).toHaveText('Seen on a site through setup() (@formbricks/js 5)');
  await guide.getByRole('button', { name: 'Continue to surveys' }).click();
  await expect(page.getByText('No surveys yet.')).toBeVisible();

  await page.getByRole('navigation', { name: 'Surveys' }).getByRole('link', { name: 'Environment' }).click();
  await expect(page.getByText('Seen on a site', { exact: true })).toBeVisible();
  const ensignSnippet = await snippetOf('Ensign script');
  const formbricksSnippet = (await snippetOf('@formbricks/js script')).replace(
    /https:\/\/unpkg\.com\/@formbricks\/js@1\.6\.5\/dist\/index\.umd\.js/,
    '/vendor/formbricks-js.umd.js',
  );
  expect(ensignSnippet).toContain(`${server.url}/js/formbricks.js`);

  await page.getByRole('navigation', { name: 'Surveys' }).getByRole('link', { name: 'Actions' }).click();
  await page.getByRole('button', { name: 'New Action' }).click();
  const newAction = page.getByRole('dialog', { name: 'New Action' });
  await newAction.getByLabel('Name').fill('Pricing page');
  await newAction.getByLabel('Type').selectOption('noCode');
  await newAction.getByLabel('Fires on').selectOption('pageUrl');
  await newAction.getByLabel('URL rule').selectOption('contains');
  await newAction.getByLabel('URL', { exact: true }).fill('/plans');
  await newAction.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('cell', { name: 'Pricing page', exact: true })).toBeVisible();
  // The site's page is /pricing: the operator corrects the rule (the survey below shows only if the edit holds).
  await page.getByRole('button', { name: 'Edit Pricing page' }).click();
  const editAction = page.getByRole('dialog', { name: 'Edit Action' });
  await expect(editAction.getByLabel('URL', { exact: true })).toHaveValue('/plans');
  await editAction.getByLabel('URL', { exact: true }).fill('/pricing');
  await editAction.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('cell', { name: 'Page URL contains “/pricing”' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Surveys' }).getByRole('link', { name: 'Surveys' }).click();
  await page.getByRole('button', { name: 'New Survey' }).click();
  await page.getByRole('button', { name: /Net Promoter Score/ }).click();
  await expect(page.getByLabel('Survey name')).toHaveValue('NPS');
  await expect(page.getByTestId('survey-preview').getByText('How likely are you to recommend us')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Pricing page' }).check();
  await page.getByRole('button', { name: 'Add attribute filter' }).click();
  await page.getByLabel('Attribute 1').fill('plan');
  await page.getByLabel('Value', { exact: true }).fill('pro');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('survey-status')).toHaveText('In progress');

  const site = await startSite(
    { ensign: ensignSnippet, formbricks: formbricksSnippet },
    `${server.url}/api/js?module=surveys&format=umd`,
  );
  try {
    await answerNps(browser, `${site.origin}/pricing?with=ensign&visitor=visitor-1`);
    await answerNps(browser, `${site.origin}/pricing?with=formbricks&visitor=visitor-2`);

    await page.getByRole('link', { name: '← All surveys' }).click();
    const row = page.getByRole('row', { name: /NPS/ });
    await expect(row.getByRole('cell', { name: 'Pricing page' })).toBeVisible();
    await expect(row.getByRole('cell').nth(4)).toHaveText(/^2\s+Results$/);
    await row.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Pause' }).click();
    await expect(row.getByText('Paused')).toBeVisible();

    // The next visit: the sync sends no survey, and none shows.
    const context = await browser.newContext();
    const next = await context.newPage();
    const sync = next.waitForResponse((response) => /\/in-app\/sync\//.test(response.url()));
    await next.goto(`${site.origin}/pricing?with=ensign&visitor=visitor-3`);
    expect((await (await sync).json()).data.surveys).toEqual([]);
    await expect(survey(next)).toHaveCount(0);
    await context.close();

    await page.getByRole('navigation', { name: 'Surveys' }).getByRole('link', { name: 'Environment' }).click();
    await expect(page.getByText('Seen on a site', { exact: true })).toBeVisible();
    await expect(
      page.getByText('through setup() (@formbricks/js 5) and init() (Ensign script or npm, @formbricks/js 1.6)'),
    ).toBeVisible();
  } finally {
    await site.close();
  }
});
