import type { FormbricksSurveys } from '../../domain/surveys/types.js';
import { rehearse, renderSurveyInline, renderSurveyModal } from './index.js';

// The IIFE build defines window.formbricksSurveys, as the @formbricks/surveys UMD build does (plus rehearse).
(window as unknown as { formbricksSurveys: FormbricksSurveys & { rehearse: () => void } }).formbricksSurveys = {
  renderSurveyModal,
  renderSurveyInline,
  rehearse,
};
