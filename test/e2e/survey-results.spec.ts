// e2e-order: starts first (visitors answering, a server restart and webhook retries)
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible, open } from './console-support.js';
import { SIZES, THEMES } from './console-page-list.js';
import { expect, freePort, startServer, test, type RunningServer } from './fixtures.js';
import { type HostSite, hostPageUrl, management, startHostSite, survey } from './surveys-support.js';

// Survey results (#31) end to end: visitors answer through the real @formbricks/js 1.6.5 and through our
// loader on a host page of another origin; the console's summary, response list and CSV export show
// exactly those answers, and one filter narrows all three alike; a webhook receiver on loopback gets each
// event once, signed, also after it was down while the server restarted. Each test starts its own server.

const SEED = 'test/e2e/survey-results-seed.yml';
const ENV = 'ce2eresultsenvironment01';
const SURVEY = 'ce2eresultssurvey0000001';
const KEY = 'e2e-results-key-00000001';
const AREA = `/namespaces/default/surveys/${ENV}`;
const RESULTS = `${AREA}/results/${SURVEY}`;
/** The webhook receivers are on loopback, which webhooks may reach only when the operator allows it. */
const INTERNAL_TARGETS = { FLIPT_SURVEYS_WEBHOOKS_ALLOW_INTERNAL_ADDRESSES: 'true' };

interface Visitor {
  userId: string;
  plan: string;
  /** The real @formbricks/js 1.6.5 loader (with our renderer), or ours. */
  loader: 'formbricks' | 'ensign';
  score: number;
  /** A choice's label, or the text typed into "Other". */
  reason: string;
  other?: boolean;
  comment: string;
}

const ALICE: Visitor = {
  userId: 'alice',
  plan: 'paid',
  loader: 'formbricks',
  score: 10,
  reason: 'Quality',
  comment: 'Great prices',
};
const BOB: Visitor = {
  userId: 'bob',
  plan: 'free',
  loader: 'ensign',
  score: 8,
  reason: 'Fast delivery',
  other: true,
  comment: 'Keep it up',
};

/** A visitor on the host page: identified, given a plan attribute, then answering the survey when it shows. */
async function answer(page: Page, site: HostSite, server: RunningServer, visitor: Visitor): Promise<void> {
  await page.goto(
    hostPageUrl(site, server.url, {
      environmentId: ENV,
      userId: visitor.userId,
      ...(visitor.loader === 'formbricks' && {
        loader: `${site.origin}/vendor/formbricks-js.umd.js`,
        renderer: `${server.url}/api/js?module=surveys&format=umd`,
      }),
    }),
  );
  const log = page.locator('#log');
  await expect(log).toContainText('init done');
  await page.getByLabel('Key').fill('plan');
  await page.getByLabel('Value').fill(visitor.plan);
  await page.getByRole('button', { name: 'Set attribute' }).click();
  await expect
    .poll(async () => {
      const people = await management<any[]>(server.url, '/people', KEY);
      return people.find((person) => person.userId === visitor.userId)?.attributes?.plan;
    })
    .toBe(visitor.plan);
  await page.getByLabel('Action name').fill('Results action');
  await page.getByRole('button', { name: 'Track action' }).click();
  const dialog = survey(page);
  await expect(dialog.getByText('How likely are you to recommend the shop?')).toBeVisible();
  await dialog.getByRole('button', { name: String(visitor.score), exact: true }).click();
  await expect(dialog.getByText('What matters most to you?')).toBeVisible();
  if (visitor.other) {
    await dialog.getByText('Other', { exact: true }).click();
    await dialog.getByPlaceholder('Please specify').fill(visitor.reason);
  } else {
    await dialog.getByText(visitor.reason, { exact: true }).click();
  }
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('textbox').fill(visitor.comment);
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thanks for the feedback')).toBeVisible();
}

/** Waits until the server holds this many finished responses of the survey. */
async function finishedResponses(server: RunningServer, count: number) {
  let responses: any[] = [];
  await expect
    .poll(async () => {
      responses = await management<any[]>(server.url, `/responses?surveyId=${SURVEY}`, KEY);
      return responses.filter((response) => response.finished).length;
    })
    .toBe(count);
  return responses;
}

/** RFC 4180 fields of a CSV text, by row. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      row.push(field.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The CSV behind the page's Download CSV link, as objects by column. */
async function downloadCsv(page: Page, server: RunningServer): Promise<Record<string, string>[]> {
  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  const response = await page.request.get(`${server.url}${href}`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/csv');
  const [header, ...rows] = parseCsv(await response.text());
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

const stat = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Totals' }).getByRole('listitem').filter({ hasText: label }).locator('strong');
const question = (page: Page, headline: string) =>
  page.locator('.results-question').filter({ has: page.getByRole('heading', { name: headline }) });
const responseCards = (page: Page) => page.getByRole('list', { name: 'Responses, newest first' }).getByRole('listitem');

test('the summary, the response list and the CSV show what visitors answered through @formbricks/js 1.6.5 and our loader; one filter narrows all three', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const server = await startServer(['--surveys', SEED]);
  const site = await startHostSite();
  try {
    await answer(page, site, server, ALICE);
    await answer(page, site, server, BOB);
    const stored = await finishedResponses(server, 2);
    expect(stored.map((response) => [response.person?.userId, response.data])).toEqual(
      expect.arrayContaining([
        ['alice', expect.objectContaining({ score: 10, reason: 'Quality', comment: 'Great prices' })],
        ['bob', expect.objectContaining({ score: 8, reason: 'Fast delivery', comment: 'Keep it up' })],
      ]),
    );

    // The survey list links to the results.
    await open(page, server, AREA);
    await page.getByRole('row').filter({ hasText: 'Shop feedback' }).getByRole('link', { name: 'Results' }).click();
    await expect(page.getByRole('heading', { name: 'Results: Shop feedback' })).toBeVisible();

    // Summary: two starts, both completed; NPS (one promoter, one passive) 50; choices with the "other" text.
    await expect(stat(page, 'Starts')).toHaveText('2');
    await expect(stat(page, 'Completed')).toHaveText('2');
    await expect(stat(page, 'Drop-offs')).toHaveText('0');
    const nps = question(page, 'How likely are you to recommend the shop?');
    await expect(nps.getByText('NPS 50')).toBeVisible();
    await expect(nps.getByRole('listitem').filter({ hasText: 'Promoters' })).toContainText('1 · 50%');
    await expect(nps.getByRole('listitem').filter({ hasText: 'Passives' })).toContainText('1 · 50%');
    await expect(nps.getByRole('listitem').filter({ hasText: 'Detractors' })).toContainText('0 · 0%');
    const reason = question(page, 'What matters most to you?');
    await expect(reason.getByRole('listitem').filter({ hasText: 'Quality' })).toContainText('1 · 50%');
    await expect(reason.getByRole('listitem').filter({ hasText: 'Price' })).toContainText('0 · 0%');
    await expect(reason.getByRole('listitem').filter({ hasText: /^Other/ })).toContainText('1 · 50%');
    await expect(reason.getByRole('listitem').filter({ hasText: 'Fast delivery' })).toContainText('bob');
    const comments = question(page, 'Anything else?');
    await expect(comments.getByRole('listitem').filter({ hasText: 'Great prices' })).toContainText('alice');
    await expect(comments.getByRole('listitem').filter({ hasText: 'Keep it up' })).toContainText('bob');

    // Responses: newest first, each visitor's answers.
    await page.getByRole('navigation', { name: 'Results view' }).getByRole('link', { name: 'Responses' }).click();
    await expect(responseCards(page)).toHaveCount(2);
    await expect(responseCards(page).nth(0)).toContainText('bob');
    await expect(responseCards(page).nth(0)).toContainText('Fast delivery');
    await expect(responseCards(page).nth(1)).toContainText('alice');
    await expect(responseCards(page).nth(1)).toContainText('Great prices');

    // CSV: the same two responses, Formbricks' columns.
    const csv = await downloadCsv(page, server);
    expect(
      csv.map((row) => [
        row['User ID'],
        row.Finished,
        row['1. How likely are you to recommend the shop?'],
        row['2. What matters most to you?'],
        row['3. Anything else?'],
        row.plan,
      ]),
    ).toEqual([
      ['bob', 'Yes', '8', 'Fast delivery', 'Keep it up', 'free'],
      ['alice', 'Yes', '10', 'Quality', 'Great prices', 'paid'],
    ]);

    // One filter (plan equals paid) narrows the list, the summary and the CSV alike, and stays in the address.
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByRole('button', { name: 'Add attribute condition' }).click();
    await page.getByLabel('Attribute 1 key').fill('plan');
    await page.getByLabel('Attribute 1 value').fill('paid');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByRole('button', { name: 'Filter (1)' })).toBeVisible();
    await expect(responseCards(page)).toHaveCount(1);
    await expect(responseCards(page).first()).toContainText('alice');
    expect(new URL(page.url()).searchParams.get('filter')).toBe(
      JSON.stringify({ personAttributes: { plan: { op: 'equals', value: 'paid' } } }),
    );
    expect((await downloadCsv(page, server)).map((row) => row['User ID'])).toEqual(['alice']);
    await page.getByRole('navigation', { name: 'Results view' }).getByRole('link', { name: 'Summary' }).click();
    await expect(stat(page, 'Starts')).toHaveText('1');
    await expect(nps.getByText('NPS 100')).toBeVisible();
    await expect(reason.getByRole('listitem').filter({ hasText: /^Other/ })).toContainText('0 · 0%');
    await expect(comments.getByRole('listitem')).toHaveCount(1);
    // The address is the view: opened anew, it shows the same filtered figures.
    const shared = page.url();
    await page.goto('about:blank');
    await page.goto(shared);
    await expect(page.getByRole('button', { name: 'Filter (1)' })).toBeVisible();
    await expect(stat(page, 'Starts')).toHaveText('1');
    // A question filter (NPS at most 8) gives the other visitor.
    const byScore = encodeURIComponent(JSON.stringify({ data: { score: { op: 'lessEqual', value: 8 } } }));
    await page.goto(`${server.url}/?filter=${byScore}#${RESULTS}/responses`);
    await expect(responseCards(page)).toHaveCount(1);
    await expect(responseCards(page).first()).toContainText('bob');
    expect((await downloadCsv(page, server)).map((row) => row['User ID'])).toEqual(['bob']);
    // Leaving the results takes the filter out of the address.
    await page.getByRole('navigation', { name: 'Surveys' }).getByRole('link', { name: 'Surveys' }).click();
    await expect(page.getByRole('link', { name: 'Shop feedback' })).toBeVisible();
    expect(new URL(page.url()).search).toBe('');

    // Deleting a response, after confirming, takes it out of the list, the summary and the CSV.
    await open(page, server, `${RESULTS}/responses`);
    await responseCards(page).filter({ hasText: 'bob' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Response' }).getByRole('button', { name: 'Delete' }).click();
    await expect(responseCards(page)).toHaveCount(1);
    expect((await downloadCsv(page, server)).map((row) => row['User ID'])).toEqual(['alice']);
    await page.getByRole('navigation', { name: 'Results view' }).getByRole('link', { name: 'Summary' }).click();
    await expect(stat(page, 'Starts')).toHaveText('1');

    // The three views: accessible in light and dark, no wider than a 375 px window.
    const views: [string, string, () => ReturnType<Page['getByRole']>][] = [
      ['survey-results-summary', RESULTS, () => page.getByRole('heading', { name: 'Drop-offs by question' })],
      ['survey-results-trends', `${RESULTS}/trends`, () => page.getByRole('heading', { name: 'Responses per day' })],
      ['survey-results-responses', `${RESULTS}/responses`, () => responseCards(page).first()],
    ];
    for (const [name, route, ready] of views) {
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        for (const size of SIZES) {
          await page.setViewportSize(size);
          await page.goto('about:blank');
          await open(page, server, route);
          await expect(ready()).toBeVisible();
          if (size.width === 1440) await expectAccessible(page);
          else
            expect(
              await page.evaluate(() => document.documentElement.scrollWidth),
              `${name} at 375 px`,
            ).toBeLessThanOrEqual(375);
        }
      }
    }
  } finally {
    await site.close();
    await server.stop();
  }
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback that records every request and answers 200. */
async function startReceiver(port: number, received: Received[]): Promise<{ close(): Promise<void> }> {
  const receiver: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(port, '127.0.0.1', done));
  return {
    close: () =>
      new Promise((done) => {
        receiver.closeAllConnections();
        receiver.close(() => done());
      }),
  };
}

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's base64 part. */
function signedWith(secret: string, { headers, body }: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  return headers['webhook-signature'] === `v1,${expected}`;
}

/** What the receiver got for a response, event by event: each delivery id must come once. */
function eventsOf(received: Received[], responseId: string): string[] {
  return received
    .map((entry) => JSON.parse(entry.body))
    .filter((payload) => payload.data?.id === responseId)
    .map((payload) => payload.event);
}

test('a webhook made in the console gets each response event once, signed, also after it was down while the server restarted', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'ensign-e2e-webhooks-'));
  const db = ['--db', `file:${join(dir, 'ensign.db')}`];
  let server = await startServer(['--surveys', SEED, ...db], INTERNAL_TARGETS);
  const site = await startHostSite();
  const received: Received[] = [];
  const port = await freePort();
  let receiver = await startReceiver(port, received);
  try {
    // Made in the console; the signing secret is shown once, in the dialog after creating it.
    await open(page, server, AREA);
    await page.getByRole('navigation', { name: 'Surveys' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New Webhook' }).click();
    const form = page.getByRole('dialog', { name: 'New Webhook' });
    await form.getByLabel('Name').fill('Loopback');
    await form.getByLabel('URL').fill(`http://127.0.0.1:${port}/hook`);
    await form.getByRole('checkbox', { name: 'All surveys, current and future' }).uncheck();
    await form.getByRole('checkbox', { name: 'Shop feedback' }).check();
    await form.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: 'Webhook created' });
    await expect(shown.getByTestId('webhook-secret')).toHaveText(/^whsec_[A-Za-z0-9+/=]+$/);
    const secret = (await shown.getByTestId('webhook-secret').textContent())!;
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Loopback' });
    await expect(row).toContainText(`http://127.0.0.1:${port}/hook`);
    await expect(row).toContainText('Response created, Response updated, Response finished');
    await expect(row).toContainText('Shop feedback');
    await expect(page.getByText(secret)).toHaveCount(0);
    // The webhooks page: accessible in light and dark, no wider than a 375 px window.
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await expect(row).toBeVisible();
        if (size.width === 1440) await expectAccessible(page);
        else expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      }
    }
    await page.setViewportSize(SIZES[0]);

    // A visitor answers through our loader: created, updated per answer, finished, each once and signed.
    await answer(page, site, server, BOB);
    const [first] = await finishedResponses(server, 1);
    await expect
      .poll(() => eventsOf(received, first.id).filter((event) => event === 'responseFinished'))
      .toHaveLength(1);
    const firstEvents = eventsOf(received, first.id);
    expect(firstEvents.filter((event) => event === 'responseCreated')).toHaveLength(1);
    expect(firstEvents.filter((event) => event === 'responseUpdated').length).toBeGreaterThanOrEqual(1);

    // The receiver goes down; a second visitor answers; the server restarts; the receiver comes back.
    await receiver.close();
    await answer(page, site, server, ALICE);
    const second = (await finishedResponses(server, 2)).find((response) => response.person?.userId === 'alice');
    const hooks = await fetch(`${server.url}/api/v1/namespaces/default/surveys/environments/${ENV}/webhooks`);
    const [hook] = ((await hooks.json()) as { data: { id: string }[] }).data;
    const deliveries = async (url: string) =>
      (
        (await (
          await fetch(`${url}/api/v1/namespaces/default/surveys/environments/${ENV}/webhooks/${hook.id}/deliveries`)
        ).json()) as { data: { id: string; status: string; attempts: number; lastError: string | null }[] }
      ).data;
    // Delivered ones leave the queue; those that failed wait there for their next attempt.
    let failed: string[] = [];
    await expect
      .poll(async () => {
        failed = (await deliveries(server.url))
          .filter((delivery) => delivery.lastError !== null)
          .map((delivery) => delivery.id);
        return failed.length;
      })
      .toBeGreaterThan(0);
    // The console shows the queue of the webhook and why it is waiting.
    await open(page, server, `${AREA}/webhooks`);
    await expect(page.getByRole('row').filter({ hasText: 'Loopback' })).toContainText(/\d+ waiting · last error: /);
    await server.stop();
    receiver = await startReceiver(port, received);
    server = await startServer(['--surveys', SEED, ...db], INTERNAL_TARGETS);
    await expect
      .poll(() => eventsOf(received, second!.id).filter((event) => event === 'responseFinished'), {
        timeout: 90_000,
        intervals: [1000],
      })
      .toHaveLength(1);
    await expect.poll(() => deliveries(server.url), { timeout: 30_000 }).toEqual([]);

    // Every delivery arrived once (by its webhook-id), those that had failed too, signed with the secret shown once.
    const ids = received.map((entry) => entry.headers['webhook-id'] as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(failed));
    for (const entry of received) {
      expect(signedWith(secret, entry)).toBe(true);
      expect(entry.headers['content-type']).toBe('application/json');
    }
    const secondEvents = eventsOf(received, second!.id);
    expect(secondEvents.filter((event) => event === 'responseCreated')).toHaveLength(1);
    expect(secondEvents.filter((event) => event === 'responseFinished')).toHaveLength(1);
    const finished = received.map((entry) => JSON.parse(entry.body)).filter((p) => p.event === 'responseFinished');
    expect(finished.map((payload) => [payload.data.person?.userId, payload.data.data])).toEqual([
      ['bob', expect.objectContaining({ score: 8, reason: 'Fast delivery', comment: 'Keep it up' })],
      ['alice', expect.objectContaining({ score: 10, reason: 'Quality', comment: 'Great prices' })],
    ]);
  } finally {
    await receiver.close().catch(() => {});
    await site.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a webhook whose deliveries keep failing is paused, shown so in the console and resumed there', async ({
  page,
}) => {
  const server = await startServer(['--surveys', SEED], INTERNAL_TARGETS);
  const received: Received[] = [];
  const port = await freePort();
  let receiver: { close(): Promise<void> } | undefined;
  try {
    // Nothing listens on the port yet: each of the 10 deliveries fails, and the webhook is paused.
    const created = await fetch(`${server.url}/api/v1/management/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Flaky',
        url: `http://127.0.0.1:${port}/hook`,
        triggers: ['responseCreated', 'responseFinished'],
      }),
    });
    expect(created.status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${server.url}/api/v1/client/${ENV}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ surveyId: SURVEY, userId: null, finished: true, data: {} }),
      });
      expect(response.status).toBe(200);
    }
    await expect.poll(async () => (await management(server.url, '/webhooks', KEY))[0].pausedAt).not.toBeNull();

    await open(page, server, `${AREA}/webhooks`);
    const row = page.getByRole('row').filter({ hasText: 'Flaky' });
    await expect(row).toContainText(/Paused .+ · 10 waiting · last error: connection failed/);
    receiver = await startReceiver(port, received);
    await row.getByRole('button', { name: 'Resume webhook Flaky' }).click();
    await expect(row).not.toContainText('Paused');
    await expect(row.getByRole('button', { name: 'Resume webhook Flaky' })).toHaveCount(0);
    await expect.poll(() => received.length).toBe(10);
    await page.reload();
    await expect(row).toContainText('Nothing waiting');
  } finally {
    await receiver?.close();
    await server.stop();
  }
});
