import { useEffect, useId, useState } from 'react';
import type { FormbricksSurveys, TSurvey } from '../../../domain/surveys/types';
import type { SurveyEnvironment } from './api';

declare global {
  interface Window {
    formbricksSurveys?: FormbricksSurveys;
  }
}

let loading: Promise<FormbricksSurveys> | undefined;

/** The survey renderer this server serves to widgets (`/js/surveys.js`), loaded once. */
function loadRenderer(): Promise<FormbricksSurveys> {
  loading ??= new Promise((resolve, reject) => {
    if (window.formbricksSurveys?.renderSurveyInline) return resolve(window.formbricksSurveys);
    const script = document.createElement('script');
    script.src = '/js/surveys.js';
    script.onload = () =>
      window.formbricksSurveys ? resolve(window.formbricksSurveys) : reject(new Error('no renderer'));
    script.onerror = () => {
      loading = undefined;
      reject(new Error('The survey renderer could not be loaded.'));
    };
    document.head.append(script);
  });
  return loading;
}

const noop = () => {};

/**
 * The draft drawn by the widget's own renderer (`renderSurveyInline`), redrawn as it changes, on a light
 * or a dark page. The survey's look (brand colour, border) is the product's unless the survey overrides it.
 */
export function Preview({ survey, environment }: { survey: TSurvey; environment: SurveyEnvironment }) {
  const containerId = `preview-${useId().replace(/:/g, '')}`;
  const [error, setError] = useState<string>();
  const [dark, setDark] = useState(false);
  const overrides = survey.productOverwrites ?? {};
  const { product } = environment;
  const brandColor = overrides.brandColor ?? product.brandColor;
  const highlightBorderColor = overrides.highlightBorderColor ?? product.highlightBorderColor;
  useEffect(() => {
    let current = true;
    loadRenderer()
      .then((renderer) => {
        if (!current) return;
        renderer.renderSurveyInline!({
          containerId,
          survey,
          brandColor,
          highlightBorderColor,
          isBrandingEnabled: product.inAppSurveyBranding,
          placement: 'bottomRight',
          clickOutside: false,
          darkOverlay: false,
          autoFocus: false,
          getSetIsError: noop,
          getSetIsResponseSendingFinished: noop,
          onDisplay: async () => {},
          onResponse: noop,
          onClose: noop,
          onFileUpload: async () => '',
          onRetry: noop,
        });
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message));
    return () => {
      current = false;
    };
  }, [containerId, survey, brandColor, highlightBorderColor, product.inAppSurveyBranding]);
  return (
    <aside className="preview" aria-label="Preview">
      <div className="preview-header">
        <h2>Preview</h2>
        <label className="check">
          <input type="checkbox" checked={dark} onChange={(event) => setDark(event.target.checked)} />
          Dark page
        </label>
      </div>
      {error && <p role="alert">{error}</p>}
      <div className={dark ? 'preview-page preview-dark' : 'preview-page'}>
        <div id={containerId} data-testid="survey-preview" />
      </div>
    </aside>
  );
}
