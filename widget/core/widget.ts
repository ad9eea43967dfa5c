import type { FormbricksSurveys, TSurvey } from '../../domain/surveys/types.js';
import { loaded, surveyChunk } from './chunk.js';
import { flags, handle } from './log.js';
import { cfg, save } from './store.js';
import { errorState, filter, sync } from './sync.js';
import { deinit } from './triggers.js';

export const CONTAINER_ID = 'formbricks-web-container';

export const addContainer = (): void => document.body.append(Object.assign(document.createElement('div'), { id: CONTAINER_ID }));
export const removeContainer = (): void => document.getElementById(CONTAINER_ID)?.remove();

/** A page with the renderer already loaded. */
export type Host = Window & { formbricksSurveys?: FormbricksSurveys };

/** Clears the one-survey-at-a-time flag, any survey still waiting for its delay and the live response run. */
export const resetRunning = (): void => loaded?.reset();

/**
 * Shows a survey (unless one is running) through the survey chunk. While the chunk loads, the renderer
 * (which the chunk then loads unless window.formbricksSurveys exists) is preloaded: no added latency.
 */
export const render = async (survey: TSurvey): Promise<void> => {
  const { apiHost } = cfg();
  const rendererUrl = flags.rendererUrl_ || apiHost + '/api/js?module=surveys&format=umd';
  if (!loaded && !(window as Host).formbricksSurveys) {
    document.head.append(Object.assign(document.createElement('link'), { rel: 'preload', as: 'script', href: rendererUrl }));
  }
  await (await surveyChunk(apiHost))?.render(survey, rendererUrl);
};

/**
 * The survey closed: a fresh container; anonymous visitors re-filter their surveys, identified users
 * re-sync (a failure puts the widget in the error state). Then the survey chunk lets the next survey show.
 */
export const close = async (): Promise<void> => {
  try {
    removeContainer();
    addContainer();
    const c = cfg();
    if (c.userId) await sync(c, true);
    else save({ ...c, state: filter(c.state) });
  } catch (e) {
    handle(e);
    errorState();
    deinit();
  }
};
