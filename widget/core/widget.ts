import type { FormbricksSurveys, TSurvey } from '../../domain/surveys/types.js';
import { surveyChunk } from './chunk.js';
import { flags } from './log.js';
import { cfg } from './store.js';

/** A page with the renderer already loaded. */
export type Host = Window & { formbricksSurveys?: FormbricksSurveys };

/**
 * Shows a survey (unless one is running) through the survey chunk. While the chunk loads, the renderer
 * (which the chunk then loads unless window.formbricksSurveys exists) is preloaded: no added latency.
 */
export const render = async (survey: TSurvey): Promise<void> => {
  const { apiHost } = cfg();
  const rendererUrl = flags.rendererUrl_ || apiHost + '/api/js?module=surveys&format=umd';
  if (!(window as Host).formbricksSurveys) {
    document.head.append(
      Object.assign(document.createElement('link'), { rel: 'preload', as: 'script', href: rendererUrl }),
    );
  }
  await (await surveyChunk(apiHost))?.render(survey, rendererUrl);
};
