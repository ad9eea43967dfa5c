import type { FormbricksSurveys } from '../../domain/surveys/types.js';
import { renderSurveyModal } from './index.js';

// The IIFE build defines window.formbricksSurveys, as the @formbricks/surveys UMD build does.
(window as unknown as { formbricksSurveys: FormbricksSurveys }).formbricksSurveys = { renderSurveyModal };
