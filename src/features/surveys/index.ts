// What other features may use of the surveys area; everything else in this folder is internal.
import { lazy } from 'react';

export { type SurveyEnvironment, surveyKeys, surveyPaths, surveyQuery, surveysQuery } from './api';
export { SurveysArea } from './SurveysArea';

/** A flag's Feedback tab (its linked surveys' answers by variant), in a chunk of its own. */
export const FlagFeedbackTab = lazy(() => import('./FeedbackTab'));
