// The console and the server at 100,000 flags. Seeds a SQLite database straight through the tables
// (test/support/many-flags.ts: 100,000 flags in namespace "default", half of them variant flags with
// two variants, 100,000 segments there too, and 10 flags in namespace "small"), starts the build
// (`npm run build` first) on it and prints:
// - in Chromium (/usr/bin/chromium): time and API bytes until the flag list shows its first rows, then
//   until every page is in; search latency per keystroke and sort latency on the whole list; the
//   evaluation console's flag search per keystroke; the same figures for the segment list;
// - POST /evaluate/v1/boolean p50/p99 (autocannon) on the 100,000-flag namespace next to the 10-flag one.
// BENCH_FLAGS changes the size. The snapshot endpoint at this size is measured by bench/snapshot.
import { spawnListening } from './support/listening.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type Browser, chromium, type Page } from 'playwright-core';
import { manyFlagKey, manySegmentKey, seedMany } from '../test/support/many-flags.js';
import { atMost } from './support/verdicts.js';

const FLAGS = Number(process.env.BENCH_FLAGS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-scale-'));
const url = `file:${join(dir, 'ensign.db')}`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function startServer() {
  const { base, child } = await spawnListening([
    'dist/cli.js',
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--db',
    url,
  ]);
  return { base, stop: () => child.kill() };
}

/** Where a search is typed and where what it finds shows: the list pages' table, the console's suggestions. */
interface SearchBox {
  input: string;
  /** The cells (or options) holding the keys found. */
  found: string;
}

const LIST_SEARCH: SearchBox = { input: 'input[type=search]', found: 'table tbody tr td:first-child' };
const CONSOLE_SEARCH: SearchBox = { input: 'input[list]', found: 'datalist option' };

/** Types `text` into the search box one key at a time; per key, the time until every key shown holds what is typed. */
async function keystrokes(page: Page, box: SearchBox, text: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 1; i <= text.length; i++) {
    times.push(
      await page.evaluate(
        async ({ box, typed }) => {
          const input = document.querySelector<HTMLInputElement>(box.input) as HTMLInputElement;
          const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
          const started = performance.now();
          setValue?.call(input, typed);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          const shown = () => {
            const keys = [...document.querySelectorAll(box.found)].map(
              (found) => (found as HTMLOptionElement).value || found.textContent,
            );
            return keys.length > 0
              ? keys.every((key) => key?.toLowerCase().includes(typed))
              : !!document.querySelector('p.muted');
          };
          while (!shown()) await new Promise((resolve) => requestAnimationFrame(resolve));
          return performance.now() - started;
        },
        { box, typed: text.slice(0, i) },
      ),
    );
  }
  return times;
}

/** The search's verdict: its worst keystroke at most 100 ms, with every keystroke's time. */
const searchVerdict = (budget: string, times: number[]) =>
  atMost(
    budget,
    Math.max(...times),
    100,
    `worst ${ms(Math.max(...times))} (per keystroke: ${times.map((t) => t.toFixed(0)).join(' ')} ms)`,
    'at most 100 ms',
  );

/**
 * Opens a list page in a new tab and prints the time and API bytes until its first rows show, then
 * until every page is in, and the search latency per keystroke on the whole list. Leaves the tab open.
 * Times are read in the page, from the navigation's start: the driver would see the first rows later,
 * with more pages already in, and count their bytes too.
 */
async function listFigures(browser: Browser, base: string, noun: string, route: string, lastKey: string) {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('table tbody tr')) return;
      (window as unknown as { firstRowsAt: number }).firstRowsAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${base}/#${route}`);
  await page.locator('table tbody tr').first().waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(`^Loading ${noun}`) })
    .waitFor({ state: 'detached', timeout: 600_000 });
  const { firstRows, responses } = await page.evaluate(() => ({
    firstRows: (window as unknown as { firstRowsAt: number }).firstRowsAt,
    responses: performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/v1/'))
      .map((entry) => ({
        at: (entry as PerformanceResourceTiming).responseEnd,
        bytes: (entry as PerformanceResourceTiming).encodedBodySize,
      })),
  }));
  const whole = Math.max(...responses.map((r) => r.at));
  const bytesBefore = (at: number) => responses.filter((r) => r.at <= at).reduce((sum, r) => sum + r.bytes, 0);
  const list = `${noun} list, ${FLAGS.toLocaleString('en-US')} ${noun}`;
  atMost(`${list}: first rows`, firstRows, 1000, ms(firstRows), 'at most 1 s');
  atMost(
    `${list}: API data before the first rows`,
    bytesBefore(firstRows) / 1e6,
    1,
    mb(bytesBefore(firstRows)),
    'at most 1 MB',
  );
  console.log(`${list}: whole list after ${ms(whole)}, ${mb(bytesBefore(whole))} in ${responses.length} requests`);
  // Digits a few keys hold, each narrowing the rows, so that every keystroke changes the table.
  const search = await keystrokes(page, LIST_SEARCH, lastKey.slice(-5));
  searchVerdict(`${noun} search at ${FLAGS.toLocaleString('en-US')} ${noun}`, search);
  return page;
}

async function consoleFigures(base: string) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await listFigures(browser, base, 'flags', '/namespaces/default/flags', manyFlagKey(FLAGS - 7));
    await page.getByPlaceholder('Search by key or name').fill('');
    await page.locator('table tbody tr').nth(19).waitFor();
    const before = await page.locator('table tbody').textContent();
    const sortStarted = performance.now();
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await page.waitForFunction((shown) => document.querySelector('table tbody')?.textContent !== shown, before);
    console.log(
      `sort by name at ${FLAGS.toLocaleString('en-US')} flags: ${ms(performance.now() - sortStarted)} (click to rows, through the browser driver)`,
    );
    // The evaluation console suggests flags from the same cached list.
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Console' }).click();
    await page.locator(CONSOLE_SEARCH.input).waitFor();
    const suggestions = await keystrokes(page, CONSOLE_SEARCH, manyFlagKey(FLAGS - 7).slice(-5));
    searchVerdict(`evaluation console flag search at ${FLAGS.toLocaleString('en-US')} flags`, suggestions);
    await page.close();
    await listFigures(browser, base, 'segments', '/namespaces/default/segments', manySegmentKey(FLAGS - 7));
  } finally {
    await browser.close();
  }
}

async function evaluation(base: string, namespaceKey: string) {
  const result = await autocannon({
    url: `${base}/evaluate/v1/boolean`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ namespaceKey, flagKey: manyFlagKey(0), entityId: 'entity', context: { plan: 'pro' } }),
    connections: 16,
    duration: SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}

try {
  let started = performance.now();
  await seedMany(url, { flags: FLAGS, segments: FLAGS });
  await seedMany(url, { namespaceKey: 'small', flags: 10 });
  console.log(`seeded ${FLAGS.toLocaleString('en-US')} flags and segments in ${ms(performance.now() - started)}`);
  const server = await startServer();
  try {
    await consoleFigures(server.base);
    for (const namespaceKey of ['small', 'default']) await evaluation(server.base, namespaceKey); // warm-up
    for (const [namespaceKey, size] of [
      ['small', 10],
      ['default', FLAGS],
      ['small', 10],
      ['default', FLAGS],
    ] as const) {
      started = performance.now();
      const result = await evaluation(server.base, namespaceKey);
      console.log(
        `POST /evaluate/v1/boolean, namespace of ${size.toLocaleString('en-US').padStart(7)} flags: p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ${Math.round(result.requests.average)} req/s`,
      );
    }
  } finally {
    server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
