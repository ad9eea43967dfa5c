import type { FormbricksSurveys, SurveyLook, TSurvey } from '../../domain/surveys/types.js';
import { type Fields, surveyChunk } from './chunk.js';
import { flags } from './log.js';
import { cfg, peek } from './store.js';

/** A page with the renderer already loaded; ours can also rehearse a first survey (widget/render/index.tsx). */
export type Host = Window & { formbricksSurveys?: FormbricksSurveys & { rehearse?: (first?: SurveyLook) => void } };

/**
 * Shows a survey (unless one is running) through the survey chunk, which loads the renderer unless
 * window.formbricksSurveys exists; with no survey, only loads the chunk and the renderer.
 */
export const render = async (survey?: TSurvey, fields?: Fields): Promise<void> => {
  const { apiHost } = cfg();
  await (await surveyChunk(apiHost))?.render(
    survey,
    flags.rendererUrl_ || apiHost + '/api/js?module=surveys&format=umd',
    fields,
    flags.nonce_,
  );
};

/**
 * Once the page has loaded, when the browser is idle, and only if a survey could show: loads the renderer
 * (and the survey chunk, unless init() has), so that the first survey waits for neither, and has ours
 * rehearse. Called on every page check; the renderer loads and rehearses once.
 */
export const prefetch = (): void => {
  if (document.readyState === 'complete') {
    (window.requestIdleCallback || setTimeout)(() => peek()?.state.surveys.length && render());
  }
};
