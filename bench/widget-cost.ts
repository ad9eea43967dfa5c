// What the survey loader costs the host page, ours against the real @formbricks/js 1.6.5: Chromium with the
// CPU slowed 4x (a mid-range phone), a new visitor each round, the same host page, server and preloaded
// renderer (ours: the real loader would fetch @formbricks/surveys from unpkg otherwise). Each round visits
// the page twice per loader: once calling track() once the page has loaded and gone idle, once calling it
// as soon as init() resolves. Rounds alternate so both suffer the same machine noise, after one uncounted
// round of each; medians are printed against the budgets of docs/decisions.md.
// Run `npm run build` first. ROUNDS=n sets the number of rounds (default 30); TRACE=folder writes a Chromium
// trace of each loader's first round there, both visits (open it in Chrome's Performance panel).
import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { fork } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM } from '../playwright.config.js';
import { startBuiltServer } from './support/servers.js';
import { atMost } from './support/verdicts.js';

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const ENVIRONMENT = 'cbenchenvironment0000001';
const ACTION = 'Bench action';
/** The first question's headline in bench/support/widget-cost.yml: a survey is visible once it is painted. */
const HEADLINE = 'How likely are you to recommend the shop to a friend?';
const TRACE = process.env.TRACE;
const LONG_TASK_MS = 50;
/** The argument that makes this script the host site's process (startHostSiteProcess). */
const HOST_SITE = 'host-site';

const LOADERS = {
  ours: '/widget/formbricks.js',
  'formbricks-js': '/vendor/formbricks-js.umd.js',
} as const;
type Loader = keyof typeof LOADERS;

/**
 * The host page: a long-task observer and trackToVisible() first; the renderer, the loader and init end its
 * body, as on a site. With `trackAtInit`, the page calls track() as soon as init() resolves.
 */
const hostPage = (loader: Loader, apiHost: string, trackAtInit: boolean) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script>
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });
// track(), then the milliseconds until the survey is visible: the first frame that holds the dialog, not
// hidden, with the first question's headline has been painted (a message posted from its animation frame
// callback is handled after that frame's style, layout and paint)
window.trackToVisible = () => {
  const shown = () =>
    [...document.querySelectorAll('#formbricks-web-container *')].some((el) => {
      const dialog = el.shadowRoot?.querySelector('[role="dialog"]');
      return dialog?.textContent?.includes(${JSON.stringify(HEADLINE)}) && dialog.checkVisibility({ visibilityProperty: true });
    });
  const start = performance.mark('track()').startTime;
  formbricks.track(${JSON.stringify(ACTION)});
  return new Promise((resolve) => {
    const frame = () =>
      requestAnimationFrame(() => {
        if (!shown()) return frame();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve({ start, toVisible: performance.now() - start });
        channel.port2.postMessage(null);
      });
    frame();
  });
};
</script>
</head><body><h1>Shop</h1>${'<p>Products, prices and a basket.</p>'.repeat(40)}
<script src="/widget/surveys.js"></script>
<script src="${LOADERS[loader]}"></script>
<script>
performance.mark('init');
formbricks.init(${JSON.stringify({ environmentId: ENVIRONMENT, apiHost })}).then(() => {
  console.log('init() ' + performance.measure('init()', 'init').duration);${
    trackAtInit ? "\n  trackToVisible().then(({ toVisible }) => console.log('track() ' + toVisible));" : ''
  }
});
</script>
</body></html>`;

const FILES: Record<string, string> = {
  '/widget/formbricks.js': 'dist/widget/formbricks.js',
  '/widget/formbricks-survey.mjs': 'dist/widget/formbricks-survey.mjs',
  '/widget/surveys.js': 'dist/widget/surveys.js',
  '/vendor/formbricks-js.umd.js': 'node_modules/@formbricks/js/dist/index.umd.js',
};
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript' };

/** The host site, on another origin than the survey server. */
async function startHostSite(apiHost: string): Promise<string> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    const loader = path.slice(1) as Loader;
    if (loader in LOADERS) {
      const trackAtInit = new URL(request.url ?? '/', 'http://host').searchParams.has('track-at-init');
      response.writeHead(200, { 'content-type': 'text/html' }).end(hostPage(loader, apiHost, trackAtInit));
    } else if (FILES[path]) {
      response.writeHead(200, { 'content-type': TYPES[extname(FILES[path])] });
      createReadStream(FILES[path]).pipe(response);
    } else response.writeHead(path === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return `http://localhost:${(server.address() as { port: number }).port}`;
}

/**
 * The host site in a process of its own, as a site's server is: in this one, the browser's automation
 * (every console message, every trace event) could keep it from answering at once, which only our loader,
 * fetching its survey chunk while init() runs, would pay for.
 */
async function startHostSiteProcess(apiHost: string): Promise<{ origin: string; close(): void }> {
  const child = fork(fileURLToPath(import.meta.url), [HOST_SITE, apiHost], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(message as string));
    child.once('exit', (code) => reject(new Error(`the host site exited with ${code}`)));
  });
  return { origin, close: () => child.kill() };
}

interface Round {
  init: number;
  toVisible: number;
  toVisibleAtInit: number;
  longestOpening: number;
  loadBlocking: number;
}

const blocking = (tasks: { duration: number }[]) =>
  tasks.reduce((sum, task) => sum + Math.max(0, task.duration - LONG_TASK_MS), 0);

/** A new visitor (a fresh browser context) with the CPU slowed 4x, traced to `trace` when given. */
async function visit<T>(
  browser: import('@playwright/test').Browser,
  trace: string | undefined,
  measure: (page: import('@playwright/test').Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    if (trace) await browser.startTracing(page, { path: trace });
    const result = await measure(page);
    if (trace) await browser.stopTracing();
    return result;
  } finally {
    await context.close();
  }
}

/** The figure a console message starting with `prefix` carries (as the page logs it, no script evaluated). */
const logged = async (page: import('@playwright/test').Page, prefix: string): Promise<number> =>
  Number(
    (await page.waitForEvent('console', (message) => message.text().startsWith(prefix))).text().slice(prefix.length),
  );

async function round(
  browser: import('@playwright/test').Browser,
  origin: string,
  loader: Loader,
  trace?: string,
): Promise<Round> {
  const afterIdle = await visit(browser, trace && `${trace}/${loader}.json`, async (page) => {
    // init()'s duration comes as a console message: evaluating a script in the page (as reading a global
    // would) while init() runs would add a task to what is measured
    const initLogged = logged(page, 'init() ');
    await page.goto(`${origin}/${loader}`);
    const init = await initLogged;
    // the page has loaded and gone quiet: whatever the loader deferred to idle time has run
    await page.waitForLoadState('networkidle');
    const loadTasks = await page.evaluate(
      () =>
        new Promise<{ duration: number }[]>((resolve) => requestIdleCallback(() => resolve((window as any).longTasks))),
    );
    const opening = await page.evaluate(async () => {
      const w = window as any;
      const { start, toVisible } = await w.trackToVisible();
      // the survey's deferred work has run once the page is idle again
      await new Promise((resolve) => requestIdleCallback(resolve));
      await new Promise((resolve) => requestIdleCallback(resolve));
      const tasks = (w.longTasks as { start: number; duration: number }[]).filter(
        (task) => task.start + task.duration > start,
      );
      return { toVisible, longest: Math.max(0, ...tasks.map((task) => task.duration)) };
    });
    return { init, toVisible: opening.toVisible, longestOpening: opening.longest, loadBlocking: blocking(loadTasks) };
  });
  // the page itself calls track() once init() resolves and logs the time to visible
  const toVisibleAtInit = await visit(browser, trace && `${trace}/${loader}-track-at-init.json`, async (page) => {
    const trackLogged = logged(page, 'track() ');
    await page.goto(`${origin}/${loader}?track-at-init`);
    return trackLogged;
  });
  return { ...afterIdle, toVisibleAtInit };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The bench: a server, the host site, Chromium, the rounds and the verdicts. */
async function measure(): Promise<void> {
  if (TRACE) mkdirSync(TRACE, { recursive: true });
  for (const file of Object.values(FILES)) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  const server = await startBuiltServer(['--surveys', 'bench/support/widget-cost.yml']);
  const site = await startHostSiteProcess(server.url);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const results: Record<Loader, Round[]> = { ours: [], 'formbricks-js': [] };
  try {
    // the server's and the browser's first page loads run cold: a round of each loader first, not counted
    for (const loader of Object.keys(LOADERS) as Loader[]) await round(browser, site.origin, loader);
    for (let i = 0; i < ROUNDS; i++) {
      // alternate which loader goes first, so neither always meets a warmer machine
      const order: Loader[] = i % 2 ? ['formbricks-js', 'ours'] : ['ours', 'formbricks-js'];
      for (const loader of order) {
        results[loader].push(await round(browser, site.origin, loader, TRACE && !i ? TRACE : undefined));
      }
    }
  } finally {
    await browser.close();
    site.close();
    server.stop();
  }

  const m = (loader: Loader, key: keyof Round) => median(results[loader].map((r) => r[key]));
  const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(8);
  console.log(`Chromium, CPU 4x slower, ${ROUNDS} alternating rounds, medians (ours / @formbricks/js 1.6.5)`);
  const row = (name: string, key: keyof Round) => {
    const [ours, theirs] = [m('ours', key), m('formbricks-js', key)];
    console.log(`${name.padEnd(40)} ${ms(ours)} ${ms(theirs)}`);
    return [ours, theirs];
  };
  const [initOurs, initTheirs] = row('init()', 'init');
  const [idleOurs, idleTheirs] = row('track() to a visible survey, page idle', 'toVisible');
  const [atInitOurs, atInitTheirs] = row('track() to visible, as init() resolves', 'toVisibleAtInit');
  const [longestOurs] = row('longest task while the survey opens', 'longestOpening');
  row('total blocking time during page load', 'loadBlocking');
  const against = (ours: number, theirs: number) => `${ours.toFixed(0)} ms against ${theirs.toFixed(0)} ms`;
  atMost('init()', initOurs / initTheirs, 1, against(initOurs, initTheirs), 'no slower than @formbricks/js 1.6.5');
  const idleLimit = Math.min(idleTheirs / 2, 100);
  atMost(
    'track() to a visible survey, page idle',
    idleOurs,
    idleLimit,
    against(idleOurs, idleTheirs),
    `at most half of @formbricks/js 1.6.5's and 100 ms: ${idleLimit.toFixed(0)} ms`,
  );
  atMost(
    'track() to visible, as init() resolves',
    atInitOurs / atInitTheirs,
    1,
    against(atInitOurs, atInitTheirs),
    'no slower than @formbricks/js 1.6.5',
  );
  atMost(
    'longest task while the survey opens',
    longestOurs,
    LONG_TASK_MS,
    `${longestOurs.toFixed(0)} ms`,
    `${LONG_TASK_MS} ms`,
  );
  for (const loader of Object.keys(results) as Loader[]) {
    console.log(
      `${loader} rounds: ${results[loader].map((r) => `${r.init.toFixed(0)}/${r.toVisible.toFixed(0)}/${r.toVisibleAtInit.toFixed(0)}/${r.longestOpening.toFixed(0)}/${r.loadBlocking.toFixed(0)}`).join('  ')}`,
    );
  }
}

if (process.argv[2] === HOST_SITE) {
  process.on('disconnect', () => process.exit());
  process.send!(await startHostSite(process.argv[3]));
} else await measure();
