/**
 * The survey chunk (built to dist/widget/formbricks-survey.mjs, loaded by chunk.ts): what the loader needs
 * only once a survey shows or responses wait to be sent. It holds no copy of the loader's state: the
 * config store and the client API come in `LoaderParts`; it imports stateless helpers only.
 */
import type {
  FormbricksSurveys,
  SurveyLook,
  TJsConfig,
  TJsState,
  TResponseData,
  TResponseValue,
  TSurvey,
} from '../../domain/surveys/types.js';
import type { client } from './api.js';
import type { Fields, SurveyChunk } from './chunk.js';
import type { emit } from './events.js';
import type { debug, handle } from './log.js';
import type { cfg, save } from './store.js';
import type { errorState, sync } from './sync.js';
import type { deinit } from './triggers.js';
import type { Host } from './widget.js';
import { addContainer, removeContainer } from './container.js';
import { filter } from './filter.js';
import { error, raise } from './log.js';
import { add, flush, setDisplay, start, stop, adoptClient } from './responses.js';
import { iso, randomId } from './store.js';
import { upload } from './upload.js';

/**
 * What the chunk gets from the loader: its own config store, client, sync, error state, deinit and logger
 * (which reads its debug flag). Positional, as property names would not be shortened across the two builds.
 */
export type LoaderParts = [
  cfg: typeof cfg,
  save: typeof save,
  client: typeof client,
  sync: typeof sync,
  errorState: typeof errorState,
  deinit: typeof deinit,
  debug: typeof debug,
  handle: typeof handle,
  emit: typeof emit,
];

/**
 * The hidden fields the survey declares, from those offered (setEmbeddedData, track's `hiddenFields`), as
 * response values: a Date as its ISO string, a boolean as text.
 */
const hiddenData = ({ hiddenFields: h }: TSurvey, fields: Fields): TResponseData => {
  const data: TResponseData = {};
  for (const id of (h?.enabled && h.fieldIds) || []) {
    const v = fields[id];
    if (v != null)
      data[id] = v instanceof Date ? v.toISOString() : typeof v === 'boolean' ? '' + v : (v as TResponseValue);
  }
  return data;
};

export default function surveyChunk(
  ...[cfg, save, client, sync, errorState, deinit, debug, handle, emit]: LoaderParts
): SurveyChunk {
  adoptClient(client);
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let loading: Promise<Host['formbricksSurveys']> | undefined;
  let setError: (on: boolean) => void = () => {};
  let setFinished: (on: boolean) => void = () => {};

  /** Clears the one-survey-at-a-time flag, any survey still waiting for its delay and the live run. */
  const reset = (): void => {
    running = false;
    clearTimeout(timer);
    stop();
  };

  /**
   * window.formbricksSurveys if present, else the renderer script, loaded once (again after a failure).
   * (A script added by a script is async already.)
   */
  const renderer = async (url: string, nonce?: string): Promise<Host['formbricksSurveys']> =>
    (window as Host).formbricksSurveys ||
    (loading ||= new Promise<Host['formbricksSurveys']>((resolve) => {
      const script = document.createElement('script');
      script.src = url;
      if (nonce) script.nonce = nonce;
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

  /** The props a survey is drawn with, its callbacks aside: the product's look, unless the survey overrides it. */
  const look = (survey: TSurvey, { product }: TJsState): SurveyLook => {
    const o = survey.productOverwrites || {};
    return {
      survey,
      brandColor: o.brandColor ?? product.brandColor,
      highlightBorderColor: o.highlightBorderColor ?? product.highlightBorderColor,
      clickOutside: o.clickOutsideClose ?? product.clickOutsideClose,
      darkOverlay: o.darkOverlay ?? product.darkOverlay,
      placement: o.placement ?? product.placement,
      isBrandingEnabled: product.inAppSurveyBranding,
    };
  };

  /**
   * Shows the survey after its delay, unless one is running already; with no survey (a survey could show),
   * loads the renderer and has ours rehearse, in idle time, the first survey that something can trigger.
   */
  const render = async (
    survey: TSurvey | undefined,
    rendererUrl: string,
    fields: Fields = {},
    nonce?: string,
  ): Promise<void> => {
    if (!survey) {
      const { state } = cfg();
      const first = state.surveys.find((s) => s.triggers.length || s.inlineTriggers);
      return void (await renderer(rendererUrl, nonce))?.rehearse?.(first && look(first, state));
    }
    if (running) return debug('A survey is already running. Skipping.');
    running = true;
    const c = cfg();
    const fs = await renderer(rendererUrl, nonce);
    if (!fs) return void (running = false);
    timer = setTimeout(() => {
      try {
        show(fs, survey, c, fields);
      } catch (e) {
        error('Could not render survey: ' + e);
        reset();
      }
    }, survey.delay * 1000);
  };

  const saveDisplays = (update: (displays: NonNullable<TJsState['displays']>) => void): void => {
    const c = cfg();
    const displays = [...(c.state.displays || [])];
    update(displays);
    save({ ...c, state: filter({ ...c.state, displays }) });
  };

  /**
   * The survey closed: a fresh container; anonymous visitors re-filter their surveys, identified users
   * re-sync (a failure puts the widget in the error state); then the next survey may show.
   */
  const close = async (): Promise<void> => {
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

  /**
   * Renders the survey with the config it was triggered with; throws what the renderer throws. The hidden
   * fields it declares go into its response with the first answer.
   */
  const show = (fs: FormbricksSurveys, survey: TSurvey, c: TJsConfig, fields: Fields): void => {
    const { apiHost, environmentId, userId, state } = c;
    const surveyId = survey.id;
    const api = client(apiHost, environmentId);
    let hidden = hiddenData(survey, fields);
    const run = start(
      { id: randomId(), apiHost, environmentId, surveyId, userId: userId || null },
      () => setError(true),
      ({ finished }, { responseId }) => {
        if (finished) setFinished(true);
        emit('response_submitted', { surveyId, responseId, finished });
      },
    );
    fs.renderSurveyModal({
      ...look(survey, state),
      getSetIsError: (f) => (setError = f),
      getSetIsResponseSendingFinished: (f) => (setFinished = f),
      onDisplay: async () => {
        try {
          if (!userId) saveDisplays((d) => d.push({ createdAt: iso(), surveyId, responded: false }));
          emit('survey_shown', { surveyId });
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
        add(run, { data: { ...hidden, ...data }, ttc, finished });
        hidden = {};
      },
      onClose: () => {
        emit('survey_closed', { surveyId });
        return close();
      },
      onFileUpload: api.storage.uploadFile,
      onRetry: () => {
        setError(false);
        void flush();
      },
    });
  };

  return { render, reset, flush, upload };
}
