// e2e-order: starts first (axe on every card)
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { RenderSurveyModalProps, TSurvey, TSurveyQuestion } from '../../domain/surveys/types.js';
import { makeSurvey } from '../unit/widget/render/survey-fixture.js';
import { XSS_PAYLOADS } from '../unit/widget/render/xss-corpus.js';
import { axe } from './console-support.js';
import { expect, test } from './fixtures.js';

// The built renderer, served with a host page from a routed origin (no server needed).
const ORIGIN = 'http://host.test';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function openHost(page: Page, beforeRenderer?: () => Promise<void>) {
  const bundle = readFileSync('dist/widget/surveys.js', 'utf8');
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/')
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><head><title>Host</title></head><body><main><h1>Host page</h1><button id="host-button">Host button</button></main></body></html>',
      });
    if (path === '/surveys.js') return route.fulfill({ contentType: 'text/javascript', body: bundle });
    if (path.startsWith('/img/')) return route.fulfill({ contentType: 'image/png', body: PNG });
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}/`);
  await beforeRenderer?.();
  await page.addScriptTag({ url: `${ORIGIN}/surveys.js` });
}

type Recorded = { responses: unknown[]; uploads: unknown[]; displays: number; closes: number };

/** How the tests' surveys look: every prop of renderSurveyModal but the survey and the callbacks. */
const LOOK = {
  brandColor: '#1e40af',
  isBrandingEnabled: true,
  clickOutside: true,
  darkOverlay: false,
  highlightBorderColor: null,
  placement: 'bottomRight',
} as const;

/**
 * Calls window.formbricksSurveys.renderSurveyModal with callbacks that record into window.__rec; with
 * `'held'`, for the survey object the page keeps in window.__held (as the loader passes the one it synced).
 */
async function render(page: Page, survey: TSurvey | 'held', props: Partial<RenderSurveyModalProps> = {}) {
  await page.evaluate(
    ({ survey, props, look }) => {
      const rec = ((window as any).__rec = { responses: [], uploads: [], displays: 0, closes: 0 } as any);
      (window as any).formbricksSurveys.renderSurveyModal({
        survey: survey === 'held' ? (window as any).__held : survey,
        ...look,
        getSetIsError: () => {},
        getSetIsResponseSendingFinished: (set: (v: boolean) => void) => ((window as any).__setSent = set),
        onDisplay: async () => void rec.displays++,
        onResponse: (update: unknown) => rec.responses.push(update),
        onClose: async () => void rec.closes++,
        onFileUpload: async (file: File, config: unknown) => {
          rec.uploads.push({ name: file.name, type: file.type, size: file.size, config });
          return `/storage/env/private/${file.name.replace('.', '--fid--abc.')}`;
        },
        onRetry: () => {},
        ...props,
      });
    },
    { survey, props, look: LOOK },
  );
}
const recorded = (page: Page) => page.evaluate(() => (window as any).__rec as Recorded);
const data = async (page: Page) => (await recorded(page)).responses.map((r: any) => r.data);

const everyType: TSurveyQuestion[] = [
  {
    id: 'name',
    type: 'openText',
    headline: 'What is your name?',
    required: true,
    longAnswer: false,
    inputType: 'text',
    placeholder: 'Your name',
  },
  {
    id: 'plan',
    type: 'multipleChoiceSingle',
    headline: 'Which plan, #recall:name/fallback:friend#?',
    required: true,
    choices: [
      { id: 'free', label: 'Free' },
      { id: 'pro', label: 'Pro' },
      { id: 'other', label: 'Other' },
    ],
  },
  {
    id: 'uses',
    type: 'multipleChoiceMulti',
    headline: 'What do you use?',
    required: true,
    choices: [
      { id: 'flags', label: 'Flags' },
      { id: 'surveys', label: 'Surveys' },
      { id: 'other', label: 'Other' },
    ],
  },
  {
    id: 'nps',
    type: 'nps',
    headline: 'How likely are you to recommend us?',
    required: true,
    lowerLabel: 'Not likely',
    upperLabel: 'Very likely',
  },
  {
    id: 'stars',
    type: 'rating',
    headline: 'Rate the docs',
    required: true,
    scale: 'star',
    range: 5,
    lowerLabel: 'Poor',
    upperLabel: 'Great',
  },
  {
    id: 'mood',
    type: 'rating',
    headline: 'How do you feel?',
    required: false,
    scale: 'smiley',
    range: 7,
    lowerLabel: 'Sad',
    upperLabel: 'Happy',
  },
  {
    id: 'terms',
    type: 'consent',
    headline: 'Terms',
    html: '<p>Please read <a href="https://example.com/terms" target="_blank">the terms</a>.</p>',
    label: 'I accept the terms',
    required: true,
  },
  {
    id: 'pics',
    type: 'pictureSelection',
    headline: 'Pick your favourite logos',
    required: true,
    allowMulti: true,
    choices: [
      { id: 'p1', imageUrl: `${ORIGIN}/img/1.png` },
      { id: 'p2', imageUrl: `${ORIGIN}/img/2.png` },
      { id: 'p3', imageUrl: `${ORIGIN}/img/3.png` },
    ],
  },
  { id: 'when', type: 'date', headline: 'When did you start?', required: true, format: 'y-M-d' },
  {
    id: 'file',
    type: 'fileUpload',
    headline: 'Attach a screenshot',
    required: true,
    allowMultipleFiles: false,
    allowedFileExtensions: ['png'],
    maxSizeInMB: 5,
  },
  { id: 'meet', type: 'cal', headline: 'Book a call', required: false, calUserName: 'ensign/intro' },
  { id: 'more', type: 'openText', headline: 'Anything else?', required: false, placeholder: 'Tell us more' },
  {
    id: 'cta',
    type: 'cta',
    headline: 'Join the beta',
    html: '<p>Early access to <strong>new</strong> features.</p>',
    required: true,
    buttonExternal: false,
    buttonLabel: 'Count me in',
  },
];

const survey = makeSurvey(everyType, {
  welcomeCard: {
    enabled: true,
    headline: 'Welcome!',
    html: '<p>Three minutes of your time?</p>',
    buttonLabel: 'Start',
    timeToFinish: true,
  },
  thankYouCard: { enabled: true, headline: 'Thanks, #recall:name/fallback:friend#!', subheader: 'See you soon.' },
});

async function seriousViolations(page: Page) {
  const results = await axe(page).include('#formbricks-web-container').analyze();
  // The survey lives in a shadow root: make sure axe looked inside it (shadow targets are nested arrays).
  expect(results.passes.some((rule) => rule.nodes.some((node) => node.target.some((t) => Array.isArray(t))))).toBe(
    true,
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('rehearses a first survey in idle time unseen: hidden, out of flow, no focus taken, then removed', async ({
  page,
}) => {
  await openHost(page, async () => {
    await page.focus('#host-button');
    await page.evaluate(() => {
      const seen = ((window as any).__rehearsal = { drawn: 0, visible: false, focusMoved: false, heights: new Set() });
      seen.heights.add(document.documentElement.scrollHeight);
      new MutationObserver((records) => {
        seen.heights.add(document.documentElement.scrollHeight);
        for (const node of records.flatMap((r) => [...r.addedNodes]) as HTMLElement[]) {
          if (!node.inert) continue;
          seen.drawn++;
          const dialog = node.shadowRoot?.querySelector('[role="dialog"]');
          seen.visible ||= !dialog || dialog.checkVisibility({ visibilityProperty: true });
        }
      }).observe(document.body, { childList: true });
      document.addEventListener('focusin', () => (seen.focusMoved = true));
    });
  });
  await page.evaluate(() => (window as any).formbricksSurveys.rehearse());
  const seen = () =>
    page.evaluate(() => {
      const s = (window as any).__rehearsal;
      return { ...s, heights: s.heights.size, left: document.querySelectorAll('body > [inert]').length };
    });
  await expect.poll(seen).toEqual({ drawn: 1, visible: false, focusMoved: false, heights: 1, left: 0 });
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('host-button');
});

test('holds the survey the loader names ready, unseen, then shows that very dialog when asked', async ({ page }) => {
  const named = makeSurvey([{ id: 'name', type: 'openText', headline: 'What is your name?', required: true }]);
  await openHost(page, async () => {
    await page.focus('#host-button');
    await page.evaluate(() => {
      const seen = ((window as any).__seen = { focusMoved: false, heights: new Set() });
      seen.heights.add(document.documentElement.scrollHeight);
      new MutationObserver(() => seen.heights.add(document.documentElement.scrollHeight)).observe(document.body, {
        childList: true,
        subtree: true,
      });
      document.addEventListener('focusin', () => (seen.focusMoved = true));
      // the loader's container, added by init
      document.body.append(Object.assign(document.createElement('div'), { id: 'formbricks-web-container' }));
      // a page style that would show every element of the page
      document.head.append(
        Object.assign(document.createElement('style'), {
          textContent: 'div { display: block !important; visibility: visible !important }',
        }),
      );
    });
  });
  await page.evaluate(
    ({ survey, look }) => {
      (window as any).__held = survey;
      (window as any).formbricksSurveys.rehearse({ survey, ...look });
    },
    { survey: named, look: LOOK },
  );
  const held = () =>
    page.evaluate(() => {
      const host = document.querySelector<HTMLElement>('#formbricks-web-container > div');
      const dialog = host?.shadowRoot?.querySelector('[role="dialog"]');
      const seen = (window as any).__seen;
      return {
        headline: dialog?.querySelector('#h')?.textContent,
        laidOut: host?.style.visibility === 'hidden',
        visible: dialog?.checkVisibility({ visibilityProperty: true }),
        focusMoved: seen.focusMoved,
        heights: seen.heights.size,
      };
    });
  await expect
    .poll(held)
    .toEqual({ headline: 'What is your name?', laidOut: true, visible: false, focusMoved: false, heights: 1 });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.evaluate(() => ((document.querySelector('#formbricks-web-container > div') as any).__rehearsed = true));

  await render(page, 'held');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'What is your name?' })).toBeVisible();
  expect(
    await page.evaluate(() => (document.querySelector('#formbricks-web-container > div') as any).__rehearsed),
  ).toBe(true);
  await expect(dialog.getByRole('textbox')).toBeFocused();
  await expect.poll(async () => (await recorded(page)).displays).toBe(1);
  await page.keyboard.type('Ada');
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thank you!')).toBeVisible();
  expect(await data(page)).toEqual([{ name: 'Ada' }]);
  await dialog.getByRole('button', { name: 'Close survey' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await recorded(page)).closes).toBe(1);
});

test('answers every question type by keyboard and mouse, with the onResponse payloads of Formbricks 1.6', async ({
  page,
}) => {
  await openHost(page);
  await render(page, survey);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
  await expect(dialog.getByText('Takes less than 4 minutes')).toBeVisible();
  expect((await recorded(page)).displays).toBe(1);

  // Focus is inside the survey: the keyboard alone starts it and answers the first questions.
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('heading', { name: 'What is your name?' })).toBeVisible();
  await page.keyboard.type('Ada');
  await page.keyboard.press('Enter');

  await expect(dialog.getByRole('heading', { name: 'Which plan, Ada?' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');

  await expect(dialog.getByRole('heading', { name: 'What do you use?' })).toBeVisible();
  await dialog.getByLabel('Flags').click();
  await dialog.getByLabel('Other').click();
  await dialog.getByPlaceholder('Please specify').fill('Dashboards');
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByRole('heading', { name: 'How likely are you to recommend us?' })).toBeVisible();
  for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: '8', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(dialog.getByRole('heading', { name: 'Rate the docs' })).toBeVisible();
  await dialog.getByRole('button', { name: '4 of 5' }).click();

  await expect(dialog.getByRole('heading', { name: /How do you feel\?/ })).toBeVisible();
  await dialog.getByRole('button', { name: '6 of 7' }).click();
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByRole('heading', { name: 'Terms' })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(dialog.getByLabel('I accept the terms')).toBeChecked();
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByRole('heading', { name: 'Pick your favourite logos' })).toBeVisible();
  await dialog.getByLabel('Picture 3').click();
  await dialog.getByLabel('Picture 1').click();
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByRole('heading', { name: 'When did you start?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a date.');
  await dialog.getByLabel('When did you start?').fill('2024-05-06');
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByRole('heading', { name: 'Attach a screenshot' })).toBeVisible();
  await dialog
    .getByLabel('Attach a screenshot')
    .setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.getByText('shot.png')).toBeVisible();
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByRole('heading', { name: /Book a call/ })).toBeVisible();
  await expect(dialog.getByRole('link', { name: /Book an appointment/ })).toHaveAttribute(
    'href',
    'https://cal.com/ensign/intro',
  );
  await dialog.getByRole('button', { name: 'Next' }).click();

  // Back returns to the previous question with its answer kept, then forward again.
  await expect(dialog.getByRole('heading', { name: /Anything else\?/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog.getByRole('heading', { name: /Book a call/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByPlaceholder('Tell us more').fill('Great work');
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByRole('heading', { name: 'Join the beta' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Count me in' })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(dialog.getByRole('heading', { name: 'Thanks, Ada!' })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

  const rec = await recorded(page);
  expect(rec.uploads).toEqual([
    {
      name: 'shot.png',
      type: 'image/png',
      size: PNG.length,
      config: { allowedFileExtensions: ['png'], surveyId: survey.id },
    },
  ]);
  expect(await data(page)).toEqual([
    { welcomeCard: 'clicked' },
    { name: 'Ada', inputType: 'text' },
    { plan: 'Pro' },
    { uses: ['Flags', 'Dashboards'] },
    { nps: 8 },
    { stars: 4 },
    { mood: 6 },
    { terms: 'accepted' },
    { pics: ['p3', 'p1'] },
    { when: '2024-05-06' },
    { file: ['/storage/env/private/shot--fid--abc.png'] },
    {},
    {},
    { more: 'Great work' },
    { cta: 'clicked' },
  ]);
  const responses = rec.responses as { ttc: Record<string, number>; finished: boolean }[];
  expect(responses.map((r) => r.finished)).toEqual([...Array(14).fill(false), true]);
  expect(responses[0].ttc).toEqual({});
  const finalTtc = responses[14].ttc;
  expect(Object.keys(finalTtc).sort()).toEqual(everyType.map((q) => q.id).sort());
  for (const ms of Object.values(finalTtc)) expect(ms).toBeGreaterThan(0);

  // The modal closes by itself after finishing (event-driven wait, no fixed sleep).
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
  expect((await recorded(page)).closes).toBe(1);
});

test('follows logic jumps and closes on Escape, returning focus to the page', async ({ page }) => {
  await openHost(page);
  const logicSurvey = makeSurvey([
    {
      id: 'q1',
      type: 'multipleChoiceSingle',
      headline: 'Do you use flags?',
      required: true,
      choices: [
        { id: 'y', label: 'Yes' },
        { id: 'n', label: 'No' },
      ],
      logic: [{ condition: 'equals', value: 'No', destination: 'q3' }],
    },
    { id: 'q2', type: 'openText', headline: 'Which flags?', required: true },
    { id: 'q3', type: 'nps', headline: 'Would you recommend us?', required: true, lowerLabel: 'No', upperLabel: 'Yes' },
  ]);
  await page.getByRole('button', { name: 'Host button' }).focus();
  await render(page, logicSurvey, { placement: 'center', darkOverlay: true });
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('No').click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByRole('heading', { name: 'Would you recommend us?' })).toBeVisible();
  expect(await data(page)).toEqual([{ q1: 'No' }]);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Host button' })).toBeFocused();
  expect((await recorded(page)).closes).toBe(1);
});

test('keeps keyboard focus inside the survey', async ({ page }) => {
  await openHost(page);
  await render(page, makeSurvey([everyType[0], everyType[12]]));
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByPlaceholder('Your name')).toBeFocused();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    const inside = await page.evaluate(() => {
      const host = document.getElementById('formbricks-web-container')!.lastElementChild!;
      return document.activeElement === host && host.shadowRoot!.activeElement !== null;
    });
    expect(inside).toBe(true);
  }
});

test('no XSS payload in survey texts ever runs', async ({ page }) => {
  await openHost(page);
  const payloads = XSS_PAYLOADS.map((p) => p.replaceAll('parent.__xss', 'window.__xss'));
  const xssSurvey = makeSurvey(
    payloads.map((payload, i) => ({
      id: `c${i}`,
      type: 'cta',
      headline: `Payload ${i} ${payload}`,
      subheader: payload,
      html: payload,
      required: false,
      buttonExternal: true,
      buttonUrl: 'javascript:window.__xss=1',
      buttonLabel: 'Go',
    })),
    {
      welcomeCard: {
        enabled: true,
        headline: payloads.join(''),
        html: payloads.join(''),
        buttonLabel: 'Start',
        fileUrl: 'javascript:window.__xss=1',
      },
      thankYouCard: {
        enabled: true,
        headline: payloads.join(''),
        subheader: payloads.join(''),
        imageUrl: 'javascript:window.__xss=1',
      },
      // An unsafe redirect is never followed; a survey with a redirect also stays open after finishing.
      redirectUrl: 'javascript:window.__xss=1',
    },
  );
  await render(page, xssSurvey);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Start' })).toBeVisible();
  // A control payload inserted without the sanitiser proves such payloads do run on this page.
  await page.evaluate(() =>
    document.body.insertAdjacentHTML('beforeend', '<img src="/missing.png" onerror="window.__control=1">'),
  );
  await page.waitForFunction(() => (window as any).__control === 1);
  await dialog.getByRole('button', { name: 'Start' }).click();
  for (let i = 0; i < payloads.length; i++) {
    await expect(dialog.getByRole('heading', { name: new RegExp(`^Payload ${i}\\b`) })).toBeVisible();
    await dialog.locator('a').evaluateAll((links) => {
      for (const a of links) (a as HTMLAnchorElement).click();
    });
    await dialog.getByRole('button', { name: 'Go' }).click();
  }
  await expect(dialog.locator('.ty')).toBeVisible();
  const unsafe = await page.evaluate(() => {
    const root = document.getElementById('formbricks-web-container')!.lastElementChild!.shadowRoot!;
    return Array.from(root.querySelectorAll('*')).flatMap((el) =>
      Array.from(el.attributes)
        .filter((a) => a.name.startsWith('on') || /^\s*(javascript|vbscript|data):/i.test(a.value))
        .map((a) => `${el.localName}[${a.name}]`),
    );
  });
  expect(unsafe).toEqual([]);
  expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
});

test('axe finds no serious or critical violations on any card', async ({ page }) => {
  await openHost(page);
  await render(page, survey, { placement: 'center', darkOverlay: true });
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Start' }).click();
  const answers: Record<string, () => Promise<unknown>> = {
    name: () => dialog.getByPlaceholder('Your name').fill('Ada'),
    plan: () => dialog.getByLabel('Free').check(),
    uses: () => dialog.getByLabel('Flags').check(),
    terms: () => dialog.getByLabel('I accept the terms').check(),
    pics: () => dialog.getByLabel('Picture 1').check(),
    when: () => dialog.getByLabel('When did you start?').fill('2024-01-02'),
    file: async () => {
      await dialog
        .getByLabel('Attach a screenshot')
        .setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: PNG });
      await expect(dialog.getByText('a.png')).toBeVisible();
    },
  };
  for (const q of everyType) {
    await expect(dialog.locator('h2')).toContainText(q.headline.replace(/#recall.*#/, 'Ada'));
    expect(await seriousViolations(page), q.type).toEqual([]);
    if (q.type === 'nps') await dialog.getByRole('button', { name: '9', exact: true }).click();
    else if (q.type === 'rating' && q.required) await dialog.getByRole('button', { name: '5 of 5' }).click();
    else {
      await answers[q.id]?.();
      await dialog.locator('button[type=submit]').click();
    }
  }
  await expect(dialog.getByRole('heading', { name: 'Thanks, Ada!' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
