import { useEffect } from 'react';
import { useConfig } from '../api/meta';

const LOADER_ID = 'ensign-survey-loader';

/**
 * Operator feedback, as Flipt's console had: when the server's UI configuration names a survey
 * environment, load the survey loader the server serves and start it for that environment.
 */
export function SurveyWidget() {
  const environmentId = useConfig().ui.surveyEnvironment;
  useEffect(() => {
    if (!environmentId || document.getElementById(LOADER_ID)) return;
    const script = document.createElement('script');
    script.id = LOADER_ID;
    script.src = '/js/formbricks.js';
    script.async = true;
    script.onload = () => {
      const widget = (window as { formbricks?: { init(config: { environmentId: string; apiHost: string }): unknown } })
        .formbricks;
      void widget?.init({ environmentId, apiHost: location.origin });
    };
    document.head.appendChild(script);
  }, [environmentId]);
  return null;
}
