import { describe, expect, it, vi } from 'vitest';
import { chunkUrl } from '../../../../widget/core/chunk.js';
import {
  BASE,
  ENV,
  HOST,
  action,
  chunkImport,
  fakeApi,
  fakeRenderer,
  loader,
  settle,
  survey,
  useLoaderPage,
} from './helpers.js';

const QUEUE_KEY = 'formbricks-js-responses';
const errors = () => vi.mocked(console.error).mock.calls.map((c) => String(c[0]));
const responseCalls = (api: ReturnType<typeof fakeApi>) => api.paths().filter((p) => p.includes('/responses'));

/** An unsent answer that a previous page of this tab left in local storage. */
const leftUnsent = () => {
  sessionStorage.setItem(QUEUE_KEY, 'this-tab');
  const run = {
    id: 'r1',
    apiHost: HOST,
    environmentId: ENV,
    surveyId: 'cs',
    userId: null,
    queue: [{ data: { q1: 'x' }, ttc: {}, finished: true }],
  };
  localStorage.setItem(QUEUE_KEY, JSON.stringify([{ ...run, owner: 'this-tab', at: Date.now() }]));
};

/** Makes the current loader's next chunk import wait until `resolve` (or fail with `reject`). */
const holdChunkImport = () => {
  const real = chunkImport.getMockImplementation()!;
  let release!: () => void;
  let fail!: (e: Error) => void;
  const held = new Promise<void>((resolve, reject) => ((release = resolve), (fail = reject)));
  chunkImport.mockImplementationOnce(async () => (await held, real()));
  return { resolve: () => release(), reject: (e: Error) => fail(e) };
};

useLoaderPage();

describe('the survey chunk', () => {
  it('is not loaded by a page reusing a config where no survey can show, with nothing left to send', async () => {
    const fb = await loader();
    fakeApi({
      surveys: [survey('cs', { triggers: ['Go'], displayOption: 'displayOnce' })],
      noCodeActionClasses: [action('Cart', { cssSelector: { value: '.cart' } })],
    });
    await fb.init({ environmentId: ENV, apiHost: HOST });
    const rendered = fakeRenderer();
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);
    await rendered[0].onDisplay();
    await rendered[0].onClose();
    // the survey was shown once and will not show again: a new page of this visitor has nothing to fetch
    const next = await loader();
    await next.init({ environmentId: ENV, apiHost: HOST });
    await next.track('Something else');
    document.body.click();
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(chunkImport).not.toHaveBeenCalled();
  });

  it("is imported alongside init()'s sync, which waits for neither it nor the renderer", async () => {
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    const fb = await loader();
    const api = fakeApi({ surveys: [survey('cs', { triggers: ['Go'] })] });
    const scripts: string[] = [];
    vi.spyOn(document.head, 'append').mockImplementation((node) => void scripts.push((node as HTMLScriptElement).src));
    const chunk = holdChunkImport();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    // asked for before the sync, still on its way once init() has resolved
    expect(chunkImport).toHaveBeenCalledTimes(1);
    const sync = api.calls.findIndex((c) => c.url.includes('/in-app/sync'));
    expect(chunkImport.mock.invocationCallOrder[0]).toBeLessThan(api.fetchMock.mock.invocationCallOrder[sync]);
    chunk.resolve();
    await vi.advanceTimersByTimeAsync(60_000);
    // the renderer never before the page's load event
    expect(scripts).toEqual([]);
    readyState.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    await settle();
    expect(scripts).toEqual([]);
    // with no requestIdleCallback (happy-dom, Safari), the next turn of the event loop
    await vi.advanceTimersByTimeAsync(0);
    expect(scripts).toEqual([`${HOST}/api/js?module=surveys&format=umd`]);

    // the survey then shows with no more download
    const rendered = fakeRenderer();
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);
    expect(chunkImport).toHaveBeenCalledTimes(1);
    expect(scripts).toHaveLength(1);
  });

  it('has the renderer fetched in requestIdleCallback where the browser has it', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (f: () => void) => idle.push(f));
    const fb = await loader();
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'] })] });
    const scripts: string[] = [];
    vi.spyOn(document.head, 'append').mockImplementation((node) => void scripts.push((node as HTMLScriptElement).src));
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(scripts).toEqual([]);
    expect(idle).toHaveLength(1);
    idle[0]();
    await settle();
    expect(scripts).toEqual([`${HOST}/api/js?module=surveys&format=umd`]);
  });

  it('a survey tracked as soon as init() resolves waits for the import init() started, and no other', async () => {
    const fb = await loader();
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'], displayOption: 'respondMultiple' })] });
    const chunk = holdChunkImport();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    const rendered = fakeRenderer();
    const tracked = fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toEqual([]);
    chunk.resolve();
    await tracked;
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);
    expect(chunkImport).toHaveBeenCalledTimes(1);
  });

  it('with a config reused (no sync), loads once, as the first survey shows before the browser was idle', async () => {
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'], displayOption: 'respondMultiple' })] });
    // the first page synced; this one, a reload within the config's 2 minutes, reuses its config
    const first = await loader();
    await first.init({ environmentId: ENV, apiHost: HOST });
    const fb = await loader();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    expect(chunkImport).not.toHaveBeenCalled();
    const chunk = holdChunkImport();
    const tracked = fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(chunkImport).toHaveBeenCalledWith(HOST);
    const rendered = fakeRenderer();
    chunk.resolve();
    await tracked;
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(1);

    await rendered[0].onClose();
    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(rendered).toHaveLength(2);
    expect(chunkImport).toHaveBeenCalledTimes(1);
  });

  it('a failure to load is logged, never thrown; the slot is freed and a later survey tries again', async () => {
    const fb = await loader();
    const errorHandler = vi.fn();
    fakeApi({ surveys: [survey('cs', { triggers: ['Go'] })] });
    const rendered = fakeRenderer();
    const offline = new TypeError('Failed to fetch dynamically imported module');
    // the import alongside the sync fails, and so does the one the first survey tries
    chunkImport.mockRejectedValueOnce(offline).mockRejectedValueOnce(offline);
    await expect(fb.init({ environmentId: ENV, apiHost: HOST, errorHandler })).resolves.toBeUndefined();
    await expect(fb.track('Go')).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(
      errors().filter((e) =>
        e.includes(
          '[ERROR] - Failed to load the Formbricks survey chunk: TypeError: Failed to fetch dynamically imported module',
        ),
      ),
    ).toHaveLength(2);
    expect(errorHandler).not.toHaveBeenCalled();
    expect(rendered).toEqual([]);

    await fb.track('Go');
    await vi.advanceTimersByTimeAsync(0);
    expect(chunkImport).toHaveBeenCalledTimes(3);
    expect(rendered).toHaveLength(1);
  });

  it('loads at init when unsent responses wait in local storage, and sends them once loaded', async () => {
    leftUnsent();
    const fb = await loader();
    const api = fakeApi();
    const chunk = holdChunkImport();
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await vi.advanceTimersByTimeAsync(0);
    expect(chunkImport).toHaveBeenCalledTimes(1);
    expect(responseCalls(api)).toEqual([]);
    chunk.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(responseCalls(api)).toEqual(['POST /responses']);
    expect(api.calls.find((c) => c.url === `${BASE}/responses`)!.body).toMatchObject({
      surveyId: 'cs',
      data: { q1: 'x' },
      finished: true,
    });
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it('a failed load at init keeps the unsent responses; they go out when the network comes back', async () => {
    leftUnsent();
    const fb = await loader();
    const api = fakeApi();
    chunkImport.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    await expect(fb.init({ environmentId: ENV, apiHost: HOST })).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors().some((e) => e.includes('Failed to load the Formbricks survey chunk'))).toBe(true);
    expect(responseCalls(api)).toEqual([]);
    expect(JSON.parse(localStorage.getItem(QUEUE_KEY)!)[0].queue).toHaveLength(1);

    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(chunkImport).toHaveBeenCalledTimes(2);
    expect(responseCalls(api)).toEqual(['POST /responses']);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it("getApi's file upload loads the chunk if init() could not; a failure to load rejects the upload", async () => {
    const fb = await loader();
    fakeApi();
    chunkImport.mockRejectedValueOnce(new TypeError('offline')).mockRejectedValueOnce(new TypeError('offline'));
    await fb.init({ environmentId: ENV, apiHost: HOST });
    await expect(fb.getApi()!.client.storage.uploadFile(new File(['x'], 'a.txt'))).rejects.toThrow(
      'Failed to load the Formbricks survey chunk',
    );
    await expect(fb.getApi()!.client.storage.uploadFile('x' as never)).rejects.toThrow(
      'Invalid file type. Expected Blob or File, but received string',
    );
    expect(chunkImport).toHaveBeenCalledTimes(3);
  });
});

describe('the IIFE loader finds the chunk', () => {
  it('next to its own script, wherever our server or another host serves it', () => {
    expect(chunkUrl('https://cdn.test/widget/formbricks.js')).toBe('https://cdn.test/widget/formbricks-survey.mjs');
    expect(chunkUrl('http://api.test/js/formbricks.umd.cjs', HOST)).toBe('http://api.test/js/formbricks-survey.mjs');
    expect(chunkUrl('http://api.test/api/js?module=js&environmentId=x', HOST)).toBe(
      'http://api.test/api/formbricks-survey.mjs',
    );
  });

  it('under {apiHost}/js/ when its script URL is unknown (an inline copy)', () => {
    expect(chunkUrl('', HOST)).toBe(`${HOST}/js/formbricks-survey.mjs`);
    expect(chunkUrl(undefined, HOST)).toBe(`${HOST}/js/formbricks-survey.mjs`);
  });
});
