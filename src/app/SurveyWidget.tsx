import { useEffect } from 'react';
import { useConfig } from '../api/meta';

/**
 * Operator feedback, as Flipt's console had: when the server's UI configuration names a survey
 * environment, load the survey loader the server serves and start it for that environment. The
 * loading code is a chunk of its own: most consoles name no environment, and the first page stays small.
 */
export function SurveyWidget() {
  const environmentId = useConfig().ui.surveyEnvironment;
  useEffect(() => {
    if (environmentId) void import('./survey-loader').then((loader) => loader.startSurveyWidget(environmentId));
  }, [environmentId]);
  return null;
}
