import type { FormbricksSurveys, TSurvey } from '../../domain/surveys/types.js';
import { client } from './api.js';
import { debug, error, flags, handle, raise } from './log.js';
import { add, flush, setDisplay, start, stop } from './responses.js';
import { cfg, iso, randomId, save } from './store.js';
import { errorState, filter, sync } from './sync.js';
import { deinit } from './triggers.js';

export const CONTAINER_ID = 'formbricks-web-container';

export const addContainer = (): void => document.body.append(Object.assign(document.createElement('div'), { id: CONTAINER_ID }));
export const removeContainer = (): void => document.getElementById(CONTAINER_ID)?.remove();

let running = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let loading: Promise<FormbricksSurveys | undefined> | undefined;
let setError: (on: boolean) => void = () => {};
let setFinished: (on: boolean) => void = () => {};


/** Clears the one-survey-at-a-time flag and any survey still waiting for its delay. */
export const resetRunning = (): void => {
  running = false;
  clearTimeout(timer);
  stop();
};

type Host = Window & { formbricksSurveys?: FormbricksSurveys };

/**
 * window.formbricksSurveys if present, else the renderer script, loaded once (again after a failure).
 * (A script added by a script is async already.)
 */
const renderer = async (apiHost: string): Promise<FormbricksSurveys | undefined> =>
  (window as Host).formbricksSurveys ||
  (loading ||= new Promise<FormbricksSurveys | undefined>((resolve) => {
    const script = document.createElement('script');
    script.src = flags.rendererUrl_ || apiHost + '/api/js?module=surveys&format=umd';
    script.onload = script.onerror = () => {
      const fs = (window as Host).formbricksSurveys;
      if (!fs) {
        error('Failed to load Formbricks Surveys library');
        loading = undefined;
      }
      resolve(fs);
    };
    document.head.append(script);
  }));

const saveDisplays = (update: (displays: NonNullable<ReturnType<typeof cfg>['state']['displays']>) => void): void => {
  const c = cfg();
  const displays = [...(c.state.displays || [])];
  update(displays);
  save({ ...c, state: filter({ ...c.state, displays }) });
};

export const render = async (survey: TSurvey): Promise<void> => {
  if (running) return debug('A survey is already running. Skipping.');
  running = true;
  const {
    apiHost,
    environmentId,
    userId,
    state: { product },
  } = cfg();
  const o = survey.productOverwrites || {};
  const surveyId = survey.id;
  const api = client(apiHost, environmentId);
  const fs = await renderer(apiHost);
  if (!fs) return void (running = false);
  const run = start(
    { id: randomId(), apiHost, environmentId, surveyId, userId: userId || null },
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
            if (!userId) saveDisplays((d) => d.push({ createdAt: iso(), surveyId, responded: false }));
            const r = await api.display.create({ surveyId, userId });
            setDisplay(run, r.ok ? r.data.id : raise('Could not create display'));
          } catch (e) {
            error('' + e);
          }
        },
        onResponse: ({ data, ttc, finished }) => {
          try {
            if (!userId) saveDisplays((d) => ((d[d.length - 1] || raise('No lastDisplay found')).responded = true));
          } catch (e) {
            error('' + e);
          }
          add(run, { data, ttc, finished });
        },
        onClose: close,
        onFileUpload: api.storage.uploadFile,
        onRetry: () => {
          setError(false);
          void flush();
        },
      });
    } catch (e) {
      error('Could not render survey: ' + e);
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
