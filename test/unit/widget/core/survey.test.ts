import { describe, expect, it, vi } from 'vitest';
import {
  BASE,
  ENV,
  HOST,
  fakeApi,
  fakeRenderer,
  json,
  loader,
  loaderInNewTab,
  unload,
  product,
  survey,
  useLoaderPage,
} from './helpers.js';

const KEY = 'formbricks-js';
const QUEUE_KEY = 'formbricks-js-responses';
const stored = () => JSON.parse(localStorage.getItem(KEY) || 'null');
const errors = () => vi.mocked(console.error).mock.calls.map((c) => String(c[0]));

useLoaderPage();

/** The renderer scripts the loader appends to <head> (not run). */
const appended = () => {
  const scripts: HTMLScriptElement[] = [];
  vi.spyOn(document.head, 'appendChild').mockImplementation((node) => {
    if (node instanceof HTMLScriptElement) scripts.push(node);
    return node;
  });
  return scripts;
};

const start = async (
  opts: { userId?: string; surveys?: ReturnType<typeof survey>[]; handler?: Parameters<typeof fakeApi>[1] } = {},
) => {
  const fb = await loader();
  const rendered = fakeRenderer();
  const api = fakeApi({ surveys: opts.surveys || [survey('cs', { triggers: ['Go'] })] }, opts.handler);
  await fb.init({ environmentId: ENV, apiHost: HOST, userId: opts.userId });
  await fb.track('Go');
  await vi.advanceTimersByTimeAsync(0);
  const props = rendered[0];
  const setIsError = vi.fn();
  const setFinished = vi.fn();
  props?.getSetIsError(setIsError);
  props?.getSetIsResponseSendingFinished(setFinished);
  api.calls.length = 0;
  return { fb, rendered, api, props, setIsError, setFinished };
};

describe('rendering', () => {
  it('passes exactly the 14 props, product values overwritten by the survey', async () => {
    const s = survey('cs', {
      triggers: ['Go'],
      productOverwrites: { brandColor: '#ff0000', placement: 'center', darkOverlay: null },
    });
    const { props } = await start({ surveys: [s] });
    expect(Object.keys(props).sort()).toEqual(
      [
        'survey',
        'brandColor',
        'isBrandingEnabled',
        'clickOutside',
        'darkOverlay',
        'highlightBorderColor',
        'placement',
        'getSetIsError',
        'getSetIsResponseSendingFinished',
        'onDisplay',
        'onResponse',
        'onClose',
        'onFileUpload',
        'onRetry',
      ].sort(),
    );
    const p = product();
    expect(props).toMatchObject({
      survey: s,
      brandColor: '#ff0000',
      placement: 'center',
      darkOverlay: p.darkOverlay,
      clickOutside: p.clickOutsideClose,
      highlightBorderColor: p.highlightBorderColor,
      isBrandingEnabled: p.inAppSurveyBranding,
    });
  });

  it('shows one survey at a time; anonymous close re-filters, then clears the flag', async () => {
    const surveys = [
      survey('ca', { triggers: ['Go'], displayOption: 'displayOnce', recontactDays: 0 }),
      survey('cb', { triggers: ['Go'], recontactDays: 0 }),
    ];
    const { fb, rendered, props } = await start({ surveys });
    await props.onDisplay();
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);
    await props.onClose();
    expect(stored().state.surveys.map((s: { id: string }) => s.id)).toEqual(['cb']);
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered.map((p) => p.survey.id)).toEqual(['ca', 'cb']);
    expect(document.querySelectorAll('#formbricks-web-container')).toHaveLength(1);
  });

  it('identified close re-syncs with no-cache, then clears the flag', async () => {
    const { fb, rendered, props, api } = await start({ userId: 'u1' });
    await props.onClose();
    expect(api.calls).toEqual([
      expect.objectContaining({ method: 'GET', url: `${BASE}/in-app/sync/u1?version=1.6.5`, cache: 'no-cache' }),
    ]);
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(2);
  });

  it('a failed re-sync on close puts the widget in the error state and deinitialises it', async () => {
    let down = false;
    const errorHandler = vi.fn();
    const fb = await loader();
    const rendered = fakeRenderer();
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'] })] }, () => (down ? json({ message: 'x' }, 502) : undefined));
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', errorHandler });
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    down = true;
    await expect(rendered[0].onClose()).resolves.toBeUndefined();
    expect(errorHandler).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'network_error', message: 'Error syncing with backend' }),
    );
    expect(stored()).toMatchObject({ status: 'error', expiresAt: '2024-06-10T12:10:00.000Z', userId: 'u1' });
    expect(document.getElementById('formbricks-web-container')).toBeNull();
    await fb.track('Go');
    expect(errorHandler).toHaveBeenLastCalledWith(expect.objectContaining({ code: 'not_initialized' }));
  });

  it('once a survey could show, has a renderer that can rehearse the first one that can be triggered do so, in idle time after init', async () => {
    const fb = await loader();
    const rehearse = vi.fn();
    (window as unknown as { formbricksSurveys: unknown }).formbricksSurveys = { renderSurveyModal: vi.fn(), rehearse };
    const first = survey('cs', { triggers: ['Go'], productOverwrites: { placement: 'center' } });
    // a survey nothing triggers is passed over
    fakeApi({ surveys: [survey('cs0', { triggers: [] }), first, survey('cs2', { triggers: ['Go'] })] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(rehearse).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(rehearse).toHaveBeenCalledTimes(1);
    // the survey that would show first, as it would be drawn (its callbacks aside)
    const p = product();
    expect(rehearse).toHaveBeenCalledWith({
      survey: first,
      brandColor: p.brandColor,
      highlightBorderColor: p.highlightBorderColor,
      clickOutside: p.clickOutsideClose,
      darkOverlay: p.darkOverlay,
      placement: 'center',
      isBrandingEnabled: p.inAppSurveyBranding,
    });
  });

  it('with no survey that could show, nothing is rehearsed', async () => {
    const fb = await loader();
    const rehearse = vi.fn();
    (window as unknown as { formbricksSurveys: unknown }).formbricksSurveys = { renderSurveyModal: vi.fn(), rehearse };
    fakeApi({ surveys: [] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await vi.advanceTimersByTimeAsync(0);
    expect(rehearse).not.toHaveBeenCalled();
  });

  it('loads the renderer from the API host once when window.formbricksSurveys is absent', async () => {
    const fb = await loader();
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'] })] });
    const scripts = appended();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    const tracked = fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    // loaded by the chunk, once for the survey and the prefetch that init scheduled
    expect(scripts.map((s) => s.src)).toEqual([`${HOST}/api/js?module=surveys&format=umd`]);
    const rendered = fakeRenderer();
    scripts[0].onload!(new Event('load'));
    await tracked;
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);
  });

  it('uses init({rendererUrl}); a failure to load is logged and a later survey may try again', async () => {
    const fb = await loader();
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'] })] });
    const scripts = appended();
    await fb.init({ environmentId: ENV, apiHost: HOST, rendererUrl: 'https://cdn.test/surveys.umd.js' });
    const first = fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    scripts[0].onerror!(new Event('error'));
    await first;
    expect(errors().some((e) => e.includes('[ERROR] - Failed to load Formbricks Surveys library'))).toBe(true);
    const second = fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(scripts.map((s) => s.src)).toEqual(['https://cdn.test/surveys.umd.js', 'https://cdn.test/surveys.umd.js']);
    const rendered = fakeRenderer();
    scripts[1].onload!(new Event('load'));
    await second;
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);
  });

  it('a renderer that throws is logged and frees the slot', async () => {
    const fb = await loader();
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'] })] });
    (window as unknown as { formbricksSurveys: unknown }).formbricksSurveys = {
      renderSurveyModal: () => {
        throw new Error('broken renderer');
      },
    };
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(errors().some((e) => e.includes('Could not render survey: Error: broken renderer'))).toBe(true);
    const rendered = fakeRenderer();
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);
  });
});

describe('displays', () => {
  it('anonymous: stores the display locally, posts it without a userId', async () => {
    const { props, api } = await start();
    await props.onDisplay();
    expect(stored().state.displays).toEqual([
      { surveyId: 'cs', createdAt: '2024-06-10T12:00:00.000Z', responded: false },
    ]);
    expect(api.calls).toEqual([
      expect.objectContaining({ method: 'POST', url: `${BASE}/displays`, body: { surveyId: 'cs' } }),
    ]);
    props.onResponse({ data: { q1: 'hi' }, ttc: { q1: 1 }, finished: false });
    expect(stored().state.displays[0].responded).toBe(true);
  });

  it('identified: posts the display with the userId and keeps no local history', async () => {
    const { props, api } = await start({ userId: 'u1' });
    await props.onDisplay();
    expect(api.calls[0].body).toEqual({ surveyId: 'cs', userId: 'u1' });
    expect(stored().state.displays).toBeUndefined();
  });

  it('a failed display is logged (Could not create display), never thrown', async () => {
    const { props } = await start({
      handler: (c) => (c.url.endsWith('/displays') ? json({ message: 'x' }, 500) : undefined),
    });
    await expect(props.onDisplay()).resolves.toBeUndefined();
    expect(errors().some((e) => e.includes('Could not create display'))).toBe(true);
  });

  it('a response without a local display logs No lastDisplay found and is still sent', async () => {
    const { props, api } = await start();
    props.onResponse({ data: { q1: 'hi' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(errors().some((e) => e.includes('No lastDisplay found'))).toBe(true);
    expect(api.calls.map((c) => c.url.replace(BASE, ''))).toEqual(['/responses']);
  });
});

describe('response queue', () => {
  it('creates the response, links the display, then updates it by id; finished calls the callback', async () => {
    const { props, api, setFinished } = await start({ userId: 'u1' });
    await props.onDisplay();
    props.onResponse({ data: { q1: 'hello', inputType: 'text' }, ttc: { q1: 1234.5 }, finished: false });
    props.onResponse({ data: { q2: 5 }, ttc: { q1: 1234.5, q2: 100 }, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls.map((c) => [c.method, c.url.replace(BASE, ''), c.body])).toEqual([
      ['POST', '/displays', { surveyId: 'cs', userId: 'u1' }],
      [
        'POST',
        '/responses',
        {
          data: { q1: 'hello', inputType: 'text' },
          ttc: { q1: 1234.5 },
          finished: false,
          surveyId: 'cs',
          userId: 'u1',
          singleUseId: null,
        },
      ],
      ['PUT', '/displays/cid1', { responseId: 'cid2' }],
      ['PUT', '/responses/cid2', { finished: true, data: { q2: 5 }, ttc: { q1: 1234.5, q2: 100 } }],
    ]);
    expect(setFinished).toHaveBeenCalledWith(true);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it('an answer that arrives after the survey closed still updates the same response', async () => {
    const { props, api } = await start();
    await props.onDisplay();
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: false });
    await props.onClose();
    props.onResponse({ data: { q2: 'y' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(
      api.calls.filter((c) => c.url.includes('/responses')).map((c) => `${c.method} ${c.url.replace(BASE, '')}`),
    ).toEqual(['POST /responses', 'PUT /responses/cid2']);
  });

  it('anonymous responses carry userId null', async () => {
    const { props, api } = await start();
    await props.onDisplay();
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls[1].body).toMatchObject({ userId: null, singleUseId: null });
  });

  it('a display update failure is logged and the response continues', async () => {
    const { props, api } = await start({
      handler: (c) => (c.method === 'PUT' && c.url.includes('/displays/') ? json({}, 500) : undefined),
    });
    await props.onDisplay();
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: false });
    props.onResponse({ data: { q2: 'y' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls.map((c) => `${c.method} ${c.url.replace(BASE, '')}`)).toEqual([
      'POST /displays',
      'POST /responses',
      'PUT /displays/cid1',
      'PUT /responses/cid2',
    ]);
    expect(errors().some((e) => e.includes('Failed to update display, proceeding with the response.'))).toBe(true);
  });

  it('links the display when it is created after the response', async () => {
    let releaseDisplay!: () => void;
    const { props, api } = await start({
      handler: (c) =>
        c.url.endsWith('/displays')
          ? new Promise<Response>((r) => (releaseDisplay = () => r(json({ data: { id: 'cdisplay' } }))))
          : undefined,
    });
    const displayed = props.onDisplay();
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: false });
    await vi.advanceTimersByTimeAsync(0);
    releaseDisplay();
    await displayed;
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls.map((c) => `${c.method} ${c.url.replace(BASE, '')}`)).toEqual([
      'POST /displays',
      'POST /responses',
      'PUT /displays/cdisplay',
    ]);
  });

  it('a display created after its survey closed and another started is linked to its own response', async () => {
    let releaseDisplay!: () => void;
    const { fb, rendered, props, api } = await start({
      surveys: [survey('ca', { triggers: ['Go'], recontactDays: 0 })],
      handler: (c) =>
        c.url.endsWith('/displays') && !releaseDisplay
          ? new Promise<Response>((r) => (releaseDisplay = () => r(json({ data: { id: 'cdisplaya' } }))))
          : undefined,
    });
    const displayed = props.onDisplay();
    props.onResponse({ data: { q1: 'a' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    await props.onClose();
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(2);
    releaseDisplay();
    await displayed;
    await rendered[1].onDisplay();
    rendered[1].onResponse({ data: { q1: 'b' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    const puts = api.calls.filter((c) => c.method === 'PUT').map((c) => [c.url.replace(BASE, ''), c.body]);
    const created = api.calls.filter((c) => c.url.endsWith('/responses'));
    expect(created).toHaveLength(2);
    expect(puts).toEqual([
      ['/displays/cdisplaya', { responseId: 'cid1' }],
      ['/displays/cid2', { responseId: 'cid3' }],
    ]);
  });

  it('retries a failed send after 1 s, 2 attempts, then shows the error; retry sends it', async () => {
    let down = true;
    const { props, api, setIsError, setFinished } = await start({
      handler: (c) =>
        down && c.url.includes('/responses') ? Promise.reject(new TypeError('Failed to fetch')) : undefined,
    });
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(api.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.calls).toHaveLength(2);
    expect(setIsError).toHaveBeenCalledWith(true);
    expect(errors().some((e) => e.includes('Failed to send response after 2 attempts.'))).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.calls).toHaveLength(2);
    expect(JSON.parse(localStorage.getItem(QUEUE_KEY)!)[0].queue).toHaveLength(1);

    down = false;
    props.onRetry();
    expect(setIsError).toHaveBeenLastCalledWith(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls).toHaveLength(3);
    expect(setFinished).toHaveBeenCalledWith(true);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it('a create answered without an id is a failure (Could not create response)', async () => {
    const { props, setIsError } = await start({
      handler: (c) => (c.url.endsWith('/responses') ? json({ data: {} }) : undefined),
    });
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors().filter((e) => e.includes('Could not create response'))).toHaveLength(2);
    expect(setIsError).toHaveBeenCalledWith(true);
  });

  it('unsent responses survive a reload and are sent once, without creating a second response', async () => {
    const page = await start({
      handler: (c) => (c.method === 'PUT' && c.url.includes('/responses/') ? json({}, 503) : undefined),
    });
    page.props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: false });
    page.props.onResponse({ data: { q2: 'y' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(5000);
    await unload();
    const pending = JSON.parse(localStorage.getItem(QUEUE_KEY)!);
    expect(pending).toEqual([
      expect.objectContaining({
        surveyId: 'cs',
        responseId: 'cid1',
        queue: [{ data: { q2: 'y' }, ttc: {}, finished: true }],
      }),
    ]);

    // reload: a new page, the API healthy again
    const fb = await loader();
    const api = fakeApi({ surveys: [] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await vi.advanceTimersByTimeAsync(0);
    expect(
      api.calls.filter((c) => c.url.includes('/responses')).map((c) => `${c.method} ${c.url.replace(BASE, '')}`),
    ).toEqual(['PUT /responses/cid1']);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.calls.filter((c) => c.url.includes('/responses'))).toHaveLength(1);
    await fb.deinit();
  });

  it('unsent responses are sent even while the reloaded page is in the error state', async () => {
    const { props } = await start({ handler: (c) => (c.url.endsWith('/responses') ? json({}, 500) : undefined) });
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(1000);
    await unload();
    localStorage.setItem(
      KEY,
      JSON.stringify({ status: 'error', expiresAt: new Date(Date.now() + 60_000).toISOString() }),
    );
    const fb = await loader();
    const api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls.map((c) => `${c.method} ${c.url.replace(BASE, '')}`)).toEqual(['POST /responses']);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it("another tab leaves this tab's unsent answers alone", async () => {
    const tabA = await start({ handler: (c) => (c.url.endsWith('/responses') ? json({}, 500) : undefined) });
    tabA.props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(1000);
    const tabB = await loaderInNewTab();
    const api = fakeApi();
    await tabB.init({ environmentId: ENV, apiHost: HOST });
    await vi.advanceTimersByTimeAsync(0);
    window.dispatchEvent(new Event('online')); // both tabs flush: only A sends A's answer
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls.filter((c) => c.url.endsWith('/responses'))).toHaveLength(1);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it('takes over the answers of a tab that has not written them for 2 minutes (it was closed)', async () => {
    const tabA = await start({ handler: (c) => (c.url.endsWith('/responses') ? json({}, 500) : undefined) });
    tabA.props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(1000);
    await tabA.fb.deinit(); // closed: no more retries
    const tabB = await loaderInNewTab();
    const api = fakeApi();
    await tabB.init({ environmentId: ENV, apiHost: HOST });
    await vi.advanceTimersByTimeAsync(90_000);
    expect(api.calls.filter((c) => c.url.endsWith('/responses'))).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.calls.filter((c) => c.url.endsWith('/responses'))).toHaveLength(1);
  });

  it('sends what is waiting when the network comes back', async () => {
    let down = true;
    const { props, api } = await start({
      handler: (c) => (down && c.url.endsWith('/responses') ? Promise.reject(new TypeError('offline')) : undefined),
    });
    props.onResponse({ data: { q1: 'x' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect(api.calls).toHaveLength(2);
    down = false;
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls).toHaveLength(3);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });
});
