import { afterEach, beforeEach, vi } from 'vitest';
import type { TActionClass, TProduct, TSurvey } from '../../../../domain/surveys/types.js';

export const ENV = 'clsja4yzr00c1jyj8buxwmyds';
export const HOST = 'http://api.test';
export const BASE = `${HOST}/api/v1/client/${ENV}`;

export const product = (over: Partial<TProduct> = {}): TProduct => ({
  id: 'cprod0000000000000000000',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  name: 'Demo',
  teamId: 'cteam0000000000000000000',
  brandColor: '#64748b',
  highlightBorderColor: null,
  recontactDays: 7,
  inAppSurveyBranding: true,
  linkSurveyBranding: true,
  placement: 'bottomRight',
  clickOutsideClose: true,
  darkOverlay: false,
  environments: [],
  ...over,
});

export const survey = (id: string, over: Partial<TSurvey> = {}): TSurvey => ({
  id,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  name: `Survey ${id}`,
  type: 'web',
  environmentId: ENV,
  createdBy: null,
  status: 'inProgress',
  displayOption: 'respondMultiple',
  autoClose: null,
  triggers: [],
  inlineTriggers: null,
  redirectUrl: null,
  recontactDays: null,
  welcomeCard: { enabled: false },
  questions: [{ id: 'q1', type: 'openText', headline: 'Why?', required: true }],
  thankYouCard: { enabled: false },
  hiddenFields: { enabled: false },
  delay: 0,
  autoComplete: null,
  closeOnDate: null,
  productOverwrites: null,
  styling: null,
  surveyClosedMessage: null,
  segment: null,
  singleUse: null,
  verifyEmail: null,
  pin: null,
  resultShareKey: null,
  displayPercentage: null,
  linkedFlag: null,
  segmentKey: null,
  ...over,
});

export const action = (name: string, noCodeConfig: TActionClass['noCodeConfig']): TActionClass => ({
  id: `c${name.replace(/\W/g, '').toLowerCase()}`,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  name,
  description: null,
  type: 'noCode',
  noCodeConfig,
  environmentId: ENV,
});

export interface Call {
  method: string;
  url: string;
  body: unknown;
  cache?: RequestCache;
  headers?: HeadersInit;
}

type Handler = (call: Call) => Response | Promise<Response> | undefined;

export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * A fake client API on `fetch`: `handler` answers first (return undefined to fall through), else the
 * default answers of a healthy server with the given sync payload.
 */
export const fakeApi = (
  sync: { surveys?: TSurvey[]; noCodeActionClasses?: TActionClass[]; product?: TProduct } = {},
  handler?: Handler,
) => {
  const calls: Call[] = [];
  let n = 0;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = init.method || 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call: Call = { method, url, body, cache: init.cache, headers: init.headers };
    calls.push(call);
    const custom = await handler?.(call);
    if (custom) return custom;
    const path = url.replace(BASE, '');
    if (path.startsWith('/in-app/sync')) {
      return json({
        data: {
          surveys: sync.surveys || [],
          noCodeActionClasses: sync.noCodeActionClasses || [],
          product: sync.product || product(),
          person: null,
        },
      });
    }
    if (method === 'POST' && (path === '/displays' || path === '/responses'))
      return json({ data: { id: `cid${++n}` } });
    if (method === 'POST' && path.startsWith('/people/')) return json({ data: { changed: true } });
    return json({ data: {} });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, paths: () => calls.map((c) => `${c.method} ${c.url.replace(BASE, '')}`) };
};

/** A stub of window.formbricksSurveys that records the props of every renderSurveyModal call. */
export const fakeRenderer = () => {
  const rendered: import('../../../../domain/surveys/types.js').RenderSurveyModalProps[] = [];
  (window as unknown as { formbricksSurveys: unknown }).formbricksSurveys = {
    renderSurveyModal: (props: (typeof rendered)[number]) => rendered.push(props),
  };
  return rendered;
};

const loaded: Array<{ deinit: () => Promise<void> }> = [];

type ChunkModule = typeof import('../../../../widget/core/survey.js');

/**
 * How the current loader imports the survey chunk in these tests: the source module (survey.ts) of its
 * module graph, handed over at once. Tests may inspect it or make it fail.
 */
export let chunkImport = vi.fn<(apiHost?: string) => Promise<ChunkModule>>();

/** Gives the loader of the current module graph its source chunk (the builds' entries use import()). */
export const useSourceChunk = async (): Promise<void> => {
  const chunk = await import('../../../../widget/core/survey.js');
  chunkImport = vi.fn(async () => chunk);
  const { startChunk } = await import('../../../../widget/core/index.js');
  (await import('../../../../widget/core/chunk.js')).setChunkImport(async (apiHost) =>
    startChunk(await chunkImport(apiHost)),
  );
};

/** A fresh copy of the loader (its module state included), as on a reload of the same tab. */
export const loader = async () => {
  vi.resetModules();
  const fb = (await import('../../../../widget/core/index.js')).default;
  await useSourceChunk();
  loaded.push(fb);
  return fb;
};

/** Ends every page that `loader` started (their listeners stay on the shared window otherwise). */
export const unload = async (): Promise<void> => {
  for (const fb of loaded.splice(0)) await Promise.race([fb.deinit(), settle()]);
};

/** Lets pending promise callbacks run (fake timers stay where they are). */
export const settle = async (rounds = 20): Promise<void> => {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
};

/** A fresh copy of the loader in another tab (its own session storage). */
export const loaderInNewTab = async () => {
  sessionStorage.clear();
  return loader();
};

/**
 * Every loader test starts on a blank page at a fixed time, with fake timers, empty storage, no
 * renderer and a silent console, and unloads the loader afterwards.
 */
export const useLoaderPage = (): void => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2024-06-10T12:00:00.000Z'));
    localStorage.clear();
    sessionStorage.clear();
    document.body.innerHTML = '';
    history.replaceState(null, '', '/');
    delete (window as { formbricksSurveys?: unknown }).formbricksSurveys;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterEach(async () => {
    await unload();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
};
