import './shared-chunk';

const LOADER_ID = 'ensign-survey-loader';

/** Adds the server's survey loader to the console's page (once) and starts it for the environment. */
export function startSurveyWidget(environmentId: string): void {
  if (document.getElementById(LOADER_ID)) return;
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
}
