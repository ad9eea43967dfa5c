import * as v from 'valibot';
import type { TEnvironment } from '../../domain/surveys/types.js';
import { notFound } from './errors.js';
import { SurveyStore } from './store/index.js';
import { cuidString, userIdString } from './validation.js';

/** The client API's paths: every route names its environment, some a visitor too. */
export const environmentParams = v.object({ environmentId: cuidString });
export const syncParams = v.object({ environmentId: cuidString, userId: userIdString });

/** Loads the route's environment before its body is checked: an unknown one is a 404 whatever the body. */
export const environmentOfPath =
  (store: SurveyStore) =>
  ({ params }: { params: { environmentId: string } }) =>
    environmentById(store, params.environmentId);

export async function environmentById(store: SurveyStore, environmentId: string): Promise<TEnvironment> {
  return SurveyStore.required(await store.environment(environmentId), 'Environment', environmentId);
}

/** The survey, if it exists in this environment; otherwise the 404 (a survey of another environment is not disclosed). */
export async function surveyOf(store: SurveyStore, environment: TEnvironment, surveyId: string) {
  const survey = await store.survey(surveyId);
  if (!survey || survey.environmentId !== environment.id) throw notFound('Survey', surveyId);
  return survey;
}

export async function responseIdOf(store: SurveyStore, environment: TEnvironment, responseId: string): Promise<string> {
  const response = await store.response(responseId);
  if (!response || response.environmentId !== environment.id) throw notFound('Response', responseId);
  return response.id;
}
