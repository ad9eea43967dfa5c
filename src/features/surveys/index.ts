// What other features may use of the surveys area; everything else in this folder is internal.
export { type SurveyEnvironment, surveyKeys, surveyPaths, surveyQuery, surveysQuery } from './api';
export { SurveysArea } from './SurveysArea';
