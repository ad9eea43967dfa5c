import { describe, expect, it, vi } from 'vitest';
import { ENV, HOST, action, fakeApi, fakeRenderer, json, loader, survey, useLoaderPage } from './helpers.js';

useLoaderPage();

const shown = (rendered: ReturnType<typeof fakeRenderer>) => rendered.map((p) => p.survey.id);

describe('named actions', () => {
  it('shows the first survey whose triggers name the action; identified users post the action', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    const api = fakeApi({
      surveys: [
        survey('ca', { triggers: ['Other'] }),
        survey('cb', { triggers: ['Buy'] }),
        survey('cc', { triggers: ['Buy'] }),
      ],
    });
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    await fb.track('Buy', { ignored: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['cb']);
    expect(api.calls.at(-1)).toMatchObject({ method: 'POST', body: { environmentId: ENV, userId: 'u1', name: 'Buy' } });
  });

  it('anonymous users never post actions; Exit Intent and 50% Scroll are never posted', async () => {
    let fb = await loader();
    fakeRenderer();
    let api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await fb.track('Buy');
    expect(api.paths()).toEqual(['GET /in-app/sync?version=1.6.5']);
    localStorage.clear();
    fb = await loader();
    api = fakeApi();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    await fb.track('Exit Intent (Desktop)');
    await fb.track('50% Scroll');
    expect(api.paths()).toEqual(['GET /in-app/sync/u1?version=1.6.5', 'POST /actions']);
  });

  it('a failed action post is a network_error and shows no survey', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    const errorHandler = vi.fn();
    fakeApi({ surveys: [survey('cb', { triggers: ['Buy'] })] }, (c) =>
      (c.body as { name?: string })?.name === 'Buy' ? json({ message: 'db down' }, 500) : undefined,
    );
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1', errorHandler });
    await fb.track('Buy');
    await vi.advanceTimersByTimeAsync(0);
    expect(errorHandler).toHaveBeenCalledWith(
      expect.objectContaining({
        code: 'network_error',
        status: 500,
        message: 'Error tracking action Buy',
        url: expect.stringContaining('/actions'),
      }),
    );
    expect(rendered).toEqual([]);
  });

  it('shows a survey whose inline code trigger is the action', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    fakeApi({ surveys: [survey('ci', { inlineTriggers: { codeConfig: { identifier: 'checkout' } } })] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await fb.track('checkout');
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['ci']);
  });

  it('display percentage: shown when a random 1-100 is at most the percentage', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    fakeApi({
      surveys: [survey('cp', { triggers: ['Buy'], displayPercentage: 30 }), survey('cq', { triggers: ['Buy'] })],
    });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    vi.spyOn(Math, 'random').mockReturnValue(0.3); // draws 31
    await fb.track('Buy');
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['cq']);
  });

  it('display percentage: a draw equal to the percentage shows the survey', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    fakeApi({ surveys: [survey('cp', { triggers: ['Buy'], displayPercentage: 30 })] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    vi.spyOn(Math, 'random').mockReturnValue(0.29); // draws 30
    await fb.track('Buy');
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['cp']);
  });

  it('waits the survey delay in seconds before rendering', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    fakeApi({ surveys: [survey('cd', { triggers: ['Buy'], delay: 5 })] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await fb.track('Buy');
    await vi.advanceTimersByTimeAsync(4999);
    expect(rendered).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown(rendered)).toEqual(['cd']);
  });
});

describe('page URL triggers', () => {
  const setup = async (rule = 'contains' as const) => {
    const fb = await loader();
    const api = fakeApi({
      noCodeActionClasses: [
        action('Pricing', { pageUrl: { value: '/pricing', rule } }),
        action('Both', { pageUrl: { value: '/', rule: 'contains' }, innerHtml: { value: 'x' } }),
      ],
      surveys: [
        survey('cs', { triggers: ['Pricing'] }),
        survey('ct', { inlineTriggers: { noCodeConfig: { pageUrl: { value: '#help', rule: 'endsWith' } } } }),
      ],
    });
    return { fb, api };
  };

  it('checks the page on init and on hashchange, popstate, pushState, replaceState and load', async () => {
    const rendered = fakeRenderer();
    const { fb, api } = await setup();
    history.replaceState(null, '', '/pricing');
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['cs']);
    const names = () =>
      api.calls.filter((c) => c.url.endsWith('/actions')).map((c) => (c.body as { name: string }).name);
    expect(names()).toEqual(['New Session', 'Pricing']);

    history.pushState(null, '', '/pricing?plan=pro');
    await vi.advanceTimersByTimeAsync(0);
    history.replaceState(null, '', '/pricing?plan=team');
    await vi.advanceTimersByTimeAsync(0);
    for (const ev of ['popstate', 'load']) {
      window.dispatchEvent(new Event(ev));
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(names()).toEqual(['New Session', 'Pricing', 'Pricing', 'Pricing', 'Pricing', 'Pricing']);
    history.pushState(null, '', '/blog');
    await vi.advanceTimersByTimeAsync(0);
    expect(names()).toHaveLength(6);
    await fb.deinit();
  });

  it('renders a survey with an inline page URL trigger directly (hashchange); registerRouteChange re-checks', async () => {
    const rendered = fakeRenderer();
    const { fb } = await setup();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(rendered).toEqual([]);
    location.hash = 'help';
    window.dispatchEvent(new Event('hashchange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['ct']);
    await fb.registerRouteChange();
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['ct']);
    await fb.deinit();
  });

  it('an unknown rule is invalid_match_type', async () => {
    fakeRenderer();
    const errorHandler = vi.fn();
    const { fb } = await setup('regex' as 'contains');
    await fb.init({ environmentId: ENV, apiHost: HOST, errorHandler });
    expect(errorHandler).toHaveBeenCalledWith({ code: 'invalid_match_type', message: 'Invalid match type' });
    await fb.deinit();
  });

  it('deinit restores history and stops listening', async () => {
    const push = history.pushState;
    fakeRenderer();
    const { fb, api } = await setup();
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    expect(history.pushState).not.toBe(push);
    await fb.deinit();
    expect(history.pushState).toBe(push);
    const before = api.calls.length;
    history.pushState(null, '', '/pricing');
    window.dispatchEvent(new Event('hashchange'));
    document.body.click();
    await vi.advanceTimersByTimeAsync(60_000 * 5);
    expect(api.calls).toHaveLength(before);
  });
});

describe('click, exit intent and scroll triggers', () => {
  it('tracks no-code click actions and renders surveys with inline click triggers', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    const api = fakeApi({
      noCodeActionClasses: [action('Buy click', { innerHtml: { value: 'Buy' }, cssSelector: { value: '.cta' } })],
      surveys: [survey('cs', { triggers: ['Buy click'] })],
    });
    document.body.innerHTML = '<button class="cta">Buy</button><button class="cta">Sell</button>';
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    (document.querySelectorAll('button')[1] as HTMLElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toEqual([]);
    (document.querySelectorAll('button')[0] as HTMLElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['cs']);
    expect(api.calls.at(-1)?.body).toMatchObject({ name: 'Buy click' });
    await fb.deinit();
  });

  it('renders a survey whose inline no-code trigger matches the click', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    fakeApi({ surveys: [survey('cs', { inlineTriggers: { noCodeConfig: { cssSelector: { value: '#help' } } } })] });
    document.body.innerHTML = '<a id="help">?</a>';
    await fb.init({ environmentId: ENV, apiHost: HOST });
    document.getElementById('help')!.click();
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['cs']);
    await fb.deinit();
  });

  it('exit intent fires when the pointer leaves at the top (clientY <= 0)', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    fakeApi({ surveys: [survey('ce', { triggers: ['Exit Intent (Desktop)'] })] });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    document.body.dispatchEvent(new MouseEvent('mouseleave', { clientY: 20 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toEqual([]);
    document.body.dispatchEvent(new MouseEvent('mouseleave', { clientY: 0 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(rendered)).toEqual(['ce']);
    await fb.deinit();
  });

  it('50% scroll fires once at half the scrollable height and re-arms at the top', async () => {
    const fb = await loader();
    const rendered = fakeRenderer();
    const api = fakeApi({ surveys: [survey('cs', { triggers: ['50% Scroll'], recontactDays: 0 })] });
    await fb.init({ environmentId: ENV, apiHost: HOST, userId: 'u1' });
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 3000 });
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 1000 });
    const scrollTo = async (y: number) => {
      Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
      window.dispatchEvent(new Event('scroll'));
      await vi.advanceTimersByTimeAsync(0);
    };
    await scrollTo(999);
    expect(rendered).toEqual([]);
    await scrollTo(1000);
    expect(shown(rendered)).toEqual(['cs']);
    await rendered[0].onClose();
    await scrollTo(1500);
    await scrollTo(1200);
    expect(rendered).toHaveLength(1);
    await scrollTo(0);
    await scrollTo(1100);
    expect(shown(rendered)).toEqual(['cs', 'cs']);
    expect(api.calls.some((c) => (c.body as { name?: string })?.name === '50% Scroll')).toBe(false);
    await fb.deinit();
  });
});
