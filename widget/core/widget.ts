import type { FormbricksSurveys, TSurvey } from '../../domain/surveys/types.js';
import { client } from './api.js';
import { debug, error, handle } from './log.js';
import { add, flush, setDisplay, start, stop } from './responses.js';
import { cfg, iso, save } from './store.js';
import { errorState, filter, sync } from './sync.js';
import { deinit } from './triggers.js';

export const CONTAINER_ID = 'formbricks-web-container';

export const addContainer = (): void => {
  const div = document.createElement('div');
  div.id = CONTAINER_ID;
  document.body.appendChild(div);
};
export const removeContainer = (): void => document.getElementById(CONTAINER_ID)?.remove();

let running = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let rendererUrl: string | undefined;
let loading: Promise<FormbricksSurveys | undefined> | undefined;
let setError: (on: boolean) => void = () => {};
let setFinished: (on: boolean) => void = () => {};

export const setRendererUrl = (url?: string): void => {
  rendererUrl = url;
};

/** Clears the one-survey-at-a-time flag and any survey still waiting for its delay. */
export const resetRunning = (): void => {
  running = false;
  clearTimeout(timer);
  stop();
};

type Host = Window & { formbricksSurveys?: FormbricksSurveys };

/** window.formbricksSurveys if present, else the renderer script, loaded once (again after a failure). */
const renderer = (apiHost: string): Promise<FormbricksSurveys | undefined> => {
  const w = window as Host;
  if (w.formbricksSurveys) return Promise.resolve(w.formbricksSurveys);
  return (loading ||= new Promise<FormbricksSurveys | undefined>((resolve) => {
    const script = document.createElement('script');
    script.src = rendererUrl || `${apiHost}/api/js?module=surveys&format=umd`;
    script.async = true;
    script.onload = script.onerror = () => {
      if (!w.formbricksSurveys) {
        error('Failed to load Formbricks Surveys library');
        loading = undefined;
      }
      resolve(w.formbricksSurveys);
    };
    document.head.appendChild(script);
  }));
};

const saveDisplays = (update: (displays: NonNullable<ReturnType<typeof cfg>['state']['displays']>) => void): void => {
  const c = cfg();
  const displays = [...(c.state.displays || [])];
  update(displays);
  save({ ...c, state: filter({ ...c.state, displays }) });
};

export const render = async (survey: TSurvey): Promise<void> => {
  if (running) return debug('A survey is already running. Skipping.');
  running = true;
  const { apiHost, environmentId, userId, state } = cfg();
  const { product } = state;
  const o = survey.productOverwrites || {};
  const fs = await renderer(apiHost);
  if (!fs) {
    running = false;
    return;
  }
  const run = start(
    { id: Math.random().toString(36), apiHost, environmentId, surveyId: survey.id, userId: userId || null },
    () => setError(true),
    () => setFinished(true),
  );
  timer = setTimeout(() => {
    try {
      fs.renderSurveyModal({
        survey,
        brandColor: o.brandColor ?? product.brandColor,
        highlightBorderColor: o.highlightBorderColor ?? product.highlightBorderColor,
        clickOutside: o.clickOutsideClose ?? product.clickOutsideClose,
        darkOverlay: o.darkOverlay ?? product.darkOverlay,
        placement: o.placement ?? product.placement,
        isBrandingEnabled: product.inAppSurveyBranding,
        getSetIsError: (f) => (setError = f),
        getSetIsResponseSendingFinished: (f) => (setFinished = f),
        onDisplay: async () => {
          try {
            if (!userId) saveDisplays((d) => d.push({ createdAt: iso(), surveyId: survey.id, responded: false }));
            const r = await client(apiHost, environmentId).display.create({ surveyId: survey.id, userId });
            if (!r.ok) throw new Error('Could not create display');
            setDisplay(run, r.data.id);
          } catch (e) {
            error(String(e));
          }
        },
        onResponse: ({ data, ttc, finished }) => {
          try {
            if (!userId)
              saveDisplays((d) => {
                const last = d[d.length - 1];
                if (!last) throw new Error('No lastDisplay found');
                d[d.length - 1] = { ...last, responded: true };
              });
          } catch (e) {
            error(String(e));
          }
          add(run, { data, ttc, finished });
        },
        onClose: close,
        onFileUpload: (file, config) => client(apiHost, environmentId).storage.uploadFile(file, config),
        onRetry: () => {
          setError(false);
          void flush();
        },
      });
    } catch (e) {
      error(`Could not render survey: ${e}`);
      resetRunning();
    }
  }, survey.delay * 1000);
};

/**
 * The survey closed: a fresh container; anonymous visitors re-filter their surveys, identified users
 * re-sync (a failure puts the widget in the error state); then the next survey may show.
 */
export const close = async (): Promise<void> => {
  try {
    removeContainer();
    addContainer();
    const c = cfg();
    if (c.userId) await sync(c, true);
    else save({ ...c, state: filter(c.state) });
    running = false;
  } catch (e) {
    handle(e);
    errorState();
    deinit();
  }
};
