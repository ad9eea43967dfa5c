import { type RenderSurveyProps, renderSurvey } from './current.js';
import { renderSurveyModal } from './index.js';

// The build served at /js/surveys.umd.cjs defines window.formbricksSurveys as today's Formbricks renderer
// does: renderSurvey (and renderSurveyInline) take today's props; renderSurveyModal keeps 1.6's for Ensign's loader.
(window as unknown as { formbricksSurveys: object }).formbricksSurveys = {
  renderSurvey,
  renderSurveyInline: (props: RenderSurveyProps) => renderSurvey({ ...props, mode: 'inline' }),
  renderSurveyModal,
  // Ensign's renderer draws in a Shadow DOM with a constructed style sheet: no element needs a nonce.
  setNonce: () => {},
};
