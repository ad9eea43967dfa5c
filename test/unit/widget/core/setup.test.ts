// The loader's 5.x face: the global today's @formbricks/js loads from /js/formbricks.umd.cjs (docs/compatibility.md).
import { describe, expect, it, vi } from 'vitest';
import { BASE, ENV, HOST, fakeApi, fakeRenderer, loader, survey, useLoaderPage } from './helpers.js';

const KEY = 'formbricks-js';
const stored = () => JSON.parse(localStorage.getItem(KEY) || 'null');
const body = (api: ReturnType<typeof fakeApi>, path: string) =>
  api.calls.find((c) => c.url.replace(BASE, '') === path)?.body;

useLoaderPage();

/** A page with the loader set up by setup() (anonymous), a renderer stub and a fake API. */
const setUp = async (surveys = [survey('cs', { triggers: ['checkout'] })]) => {
  const fb = await loader();
  const rendered = fakeRenderer();
  const api = fakeApi({ surveys });
  await fb.setup({ appUrl: HOST, environmentId: ENV });
  api.calls.length = 0;
  return { fb, rendered, api };
};

describe('setup', () => {
  it('through the real @formbricks/js 5.1.0: calls made before setup are queued and run in order after it', async () => {
    const fb = await loader();
    fakeRenderer();
    const api = fakeApi({ surveys: [survey('cs', { triggers: ['checkout'] })] });
    // The wrapper uses the global when present instead of loading /js/formbricks.umd.cjs.
    (globalThis as { formbricks?: unknown }).formbricks = fb;
    const wrapper = (await import('formbricks-js-5')).default;
    const setupDone = vi.fn();
    wrapper.on('formbricks_setup_successful', setupDone);
    void wrapper.setUserId('u1');
    void wrapper.setAttributes({ plan: 'pro' });
    void wrapper.track('checkout');
    expect(api.calls).toEqual([]);
    await wrapper.setup({ appUrl: `${HOST}/`, workspaceId: ENV });
    await vi.advanceTimersByTimeAsync(0);
    expect(setupDone).toHaveBeenCalledWith({ workspaceId: ENV });
    expect(api.paths()).toEqual([
      'GET /in-app/sync?version=5.1.0',
      'GET /in-app/sync/u1?version=5.1.0',
      'POST /people/u1',
      'POST /actions',
    ]);
    expect(body(api, '/people/u1')).toEqual({ attributes: { plan: 'pro' } });
    expect(body(api, '/actions')).toEqual({ environmentId: ENV, userId: 'u1', name: 'checkout' });
    delete (globalThis as { formbricks?: unknown }).formbricks;
  });

  it('a call before setup() is made reports not_initialized, as with init(); nothing throws', async () => {
    const fb = await loader();
    fakeApi();
    await expect(fb.setAttributes({ a: '1' })).resolves.toBeUndefined();
    expect(vi.mocked(console.warn).mock.calls[0][1]).toMatchObject({ code: 'not_initialized' });
  });

  it('requires an id: missing_field environmentId, and no setup event', async () => {
    const fb = await loader();
    const api = fakeApi();
    const done = vi.fn();
    fb.on('formbricks_setup_successful', done);
    await fb.setup({ appUrl: HOST });
    expect(vi.mocked(console.warn).mock.calls[0][1]).toEqual({ code: 'missing_field', field: 'environmentId' });
    expect(done).not.toHaveBeenCalled();
    expect(api.calls).toEqual([]);
  });

  it('remembers the person across page loads; logout forgets the visitor and goes on anonymously', async () => {
    let fb = await loader();
    let api = fakeApi();
    await fb.setup({ appUrl: HOST, environmentId: ENV });
    await fb.setUserId('u1');
    expect(stored().userId).toBe('u1');

    fb = await loader();
    api = fakeApi();
    await fb.setup({ appUrl: HOST, environmentId: ENV });
    expect(api.paths()).toEqual([]);
    expect(stored().userId).toBe('u1');
    vi.setSystemTime(Date.now() + 3 * 60_000);
    fb = await loader();
    api = fakeApi();
    await fb.setup({ appUrl: HOST, environmentId: ENV });
    expect(api.paths()).toEqual(['GET /in-app/sync/u1?version=5.1.0', 'POST /actions']);

    api.calls.length = 0;
    await fb.logout();
    expect(api.paths()).toEqual(['GET /in-app/sync?version=5.1.0']);
    expect(stored().userId).toBeUndefined();
    expect(document.getElementById('formbricks-web-container')).not.toBeNull();
    await fb.track('anything');
    await fb.setAttribute('plan', 'pro');
    expect(api.paths()).toEqual(['GET /in-app/sync?version=5.1.0']);
    expect(vi.mocked(console.warn)).not.toHaveBeenCalled();
  });
});

describe('person', () => {
  it('attributes set before setUserId are sent with it; setEmail and setLanguage set attributes', async () => {
    const { fb, api } = await setUp();
    await fb.setAttributes({ plan: 'pro' });
    await fb.setLanguage('de');
    expect(api.calls).toEqual([]);
    await fb.setUserId('u1');
    await fb.setEmail('a@b.c');
    await fb.setUserId('u1');
    expect(api.paths()).toEqual(['GET /in-app/sync/u1?version=5.1.0', 'POST /people/u1', 'POST /people/u1']);
    expect(api.calls[1].body).toEqual({ attributes: { plan: 'pro', language: 'de' } });
    expect(api.calls[2].body).toEqual({ attributes: { email: 'a@b.c' } });
    expect(stored().state.attributes).toEqual({ plan: 'pro', language: 'de', email: 'a@b.c' });
  });
});

describe('track and events', () => {
  it('track(key) shows the survey of the code action (its key is its name), with the five events', async () => {
    const { fb, rendered, api } = await setUp();
    const seen: unknown[] = [];
    for (const event of [
      'formbricks_action_tracked',
      'formbricks_survey_shown',
      'formbricks_response_submitted',
      'formbricks_survey_closed',
    ]) {
      fb.on(event, (payload) => seen.push([event, payload]));
    }
    await fb.track('checkout');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered.map((p) => p.survey.id)).toEqual(['cs']);
    const props = rendered[0];
    await props.onDisplay();
    props.onResponse({ data: { q1: 'hi' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    await props.onClose();
    // the fake API numbers ids in order: the display cid1, the response cid2
    expect(api.paths()).toContain('POST /responses');
    const responseId = 'cid2';
    expect(seen).toEqual([
      ['formbricks_action_tracked', { action: 'checkout' }],
      ['formbricks_survey_shown', { surveyId: 'cs' }],
      ['formbricks_response_submitted', { surveyId: 'cs', responseId, finished: true }],
      ['formbricks_survey_closed', { surveyId: 'cs' }],
    ]);
  });

  it('on returns its unsubscribe, off removes a handler, a throwing handler never reaches the page', async () => {
    const { fb } = await setUp([]);
    const a = vi.fn();
    const b = vi.fn();
    const unsubscribe = fb.on('formbricks_action_tracked', a);
    fb.on('formbricks_action_tracked', b);
    fb.on('formbricks_action_tracked', () => {
      throw new Error('host bug');
    });
    await expect(fb.track('one')).resolves.toBeUndefined();
    unsubscribe();
    await fb.track('two');
    fb.off('formbricks_action_tracked', b);
    await fb.track('three');
    expect(a.mock.calls).toEqual([[{ action: 'one' }]]);
    expect(b.mock.calls).toEqual([[{ action: 'one' }], [{ action: 'two' }]]);
    expect(vi.mocked(console.warn).mock.calls[0][1]).toEqual(new Error('host bug'));
  });
});

describe('hidden fields', () => {
  it("embedded data and track's hiddenFields go into the response, only the fields the survey declares", async () => {
    const declared = { enabled: true, fieldIds: ['plan', 'source', 'when', 'beta', 'gone'] };
    const { fb, rendered, api } = await setUp([survey('cs', { triggers: ['checkout'], hiddenFields: declared })]);
    await fb.setEmbeddedData({
      plan: 'pro',
      other: 'x',
      source: 'web',
      gone: 'soon',
      beta: true,
      when: new Date('2024-06-01T00:00:00.000Z'),
      skipped: undefined,
    });
    await fb.setEmbeddedData({ gone: null });
    await fb.clearEmbeddedData('plan');
    await fb.track('checkout', { hiddenFields: { source: 'ad', unknown: 'u' } });
    await vi.advanceTimersByTimeAsync(0);
    rendered[0].onResponse({ data: { q1: 'hi' }, ttc: {}, finished: false });
    rendered[0].onResponse({ data: { q2: 'more' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(body(api, '/responses')).toMatchObject({
      data: { source: 'ad', beta: 'true', when: '2024-06-01T00:00:00.000Z', q1: 'hi' },
    });
    expect(Object.keys((body(api, '/responses') as { data: object }).data).sort()).toEqual([
      'beta',
      'q1',
      'source',
      'when',
    ]);
    expect(api.calls.at(-1)!.body).toEqual({ data: { q2: 'more' }, ttc: {}, finished: true });
  });

  it('clearEmbeddedData() with no argument clears everything; a survey without hidden fields gets none', async () => {
    const declared = { enabled: true, fieldIds: ['plan'] };
    const { fb, rendered, api } = await setUp([
      survey('cs', { triggers: ['checkout'], hiddenFields: declared }),
      survey('co', { triggers: ['other'] }),
    ]);
    await fb.setEmbeddedData({ plan: 'pro' });
    await fb.clearEmbeddedData();
    await fb.track('checkout');
    await vi.advanceTimersByTimeAsync(0);
    rendered[0].onResponse({ data: { q1: 'hi' }, ttc: {}, finished: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(body(api, '/responses')).toMatchObject({ data: { q1: 'hi' } });
    expect(Object.keys((body(api, '/responses') as { data: object }).data)).toEqual(['q1']);
  });
});

describe('setNonce', () => {
  it("the renderer's script is added with the nonce", async () => {
    const fb = await loader();
    fakeApi({ surveys: [survey('cs', { triggers: ['checkout'] })] });
    const scripts: HTMLScriptElement[] = [];
    vi.spyOn(document.head, 'appendChild').mockImplementation((node) => {
      if (node instanceof HTMLScriptElement) scripts.push(node);
      return node;
    });
    await fb.setNonce('abc123');
    await fb.setup({ appUrl: HOST, environmentId: ENV });
    const tracked = fb.track('checkout');
    await vi.advanceTimersByTimeAsync(0);
    expect(scripts.map((s) => [s.src, s.nonce])).toEqual([[`${HOST}/api/js?module=surveys&format=umd`, 'abc123']]);
    fakeRenderer();
    scripts[0].onload!(new Event('load'));
    await tracked;
  });
});
