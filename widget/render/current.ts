/**
 * `formbricksSurveys.renderSurvey(props)` as today's Formbricks SDKs call it (docs/compatibility.md,
 * "Today's Formbricks clients"): React Native, iOS and Android load `/js/surveys.umd.cjs` in a WebView and
 * hand it the survey of the environment state, the contact id and the look. The survey is turned back into
 * the shape Ensign's renderer draws (domain/surveys/current-render.ts) and drawn by the same renderer; this
 * file makes the calls today's renderer makes: a v2 display, a v2 response with the contact id, v1 updates,
 * uploads through v1 storage, each retried, and reports back through the SDK's callbacks.
 */
import { surveyFromCurrent } from '../../domain/surveys/current-render.js';
import type { RenderSurveyModalProps, TPlacement, TResponseUpdate } from '../../domain/surveys/types.js';
import { renderSurveyInline, renderSurveyModal } from './index.js';

/** The props today's SDKs pass (extra ones are ignored). */
export interface RenderSurveyProps {
  survey: Record<string, unknown>;
  appUrl?: string;
  /** Clients before workspaces name the host and the environment so. */
  apiHost?: string;
  workspaceId?: string;
  environmentId?: string;
  contactId?: string | null;
  languageCode?: string;
  styling?: { brandColor?: { light?: string }; highlightBorderColor?: { light?: string } } | null;
  isBrandingEnabled?: boolean;
  placement?: TPlacement;
  clickOutside?: boolean;
  overlay?: 'none' | 'light' | 'dark';
  darkOverlay?: boolean;
  hiddenFieldsRecord?: Record<string, unknown>;
  mode?: 'modal' | 'inline';
  containerId?: string;
  action?: string;
  onDisplayCreated?: () => void;
  onResponseCreated?: () => void;
  onFinished?: () => void;
  onClose?: () => void;
}

/** Today's renderer retries a call 4 times, waiting 1, 2, 4 and 8 s. */
const RETRY_WAITS_MS = [1000, 2000, 4000, 8000];
/** A client error is final, except those a retry may cure. */
const RETRIED = new Set([401, 404, 408, 425, 429]);

class Final extends Error {}

async function call(url: string, method: string, body: unknown): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = await response.json();
      if (response.ok) return json.data;
      const failure = `${method} ${url}: ${response.status} ${json?.message ?? ''}`;
      if (response.status < 500 && !RETRIED.has(response.status)) throw new Final(failure);
      throw new Error(failure);
    } catch (error) {
      if (error instanceof Final || attempt >= RETRY_WAITS_MS.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_WAITS_MS[attempt]));
    }
  }
}

/** Draws the survey and sends what the visitor does, as today's renderer does. */
export function renderSurvey(props: RenderSurveyProps): void {
  const language = props.languageCode || 'default';
  const survey = surveyFromCurrent(props.survey, language);
  const host = (props.appUrl ?? props.apiHost ?? '').replace(/\/$/, '');
  const id = props.workspaceId ?? props.environmentId ?? survey.environmentId;
  const url = (version: 'v1' | 'v2', path: string) => `${host}/api/${version}/client/${id}${path}`;
  const contactId = props.contactId ?? null;
  let displayId: string | null = null;
  let responseId: string | null = null;
  let setError: (value: boolean) => void = () => {};
  let setFinished: (value: boolean) => void = () => {};
  /** Answers not yet sent, in order; one is sent at a time. */
  const waiting: TResponseUpdate[] = [];
  let sending = false;

  const send = async (update: TResponseUpdate) => {
    if (responseId === null) {
      const created = await call(url('v2', '/responses'), 'POST', {
        surveyId: survey.id,
        contactId,
        displayId,
        finished: update.finished,
        data: { ...props.hiddenFieldsRecord, ...update.data },
        ttc: update.ttc,
        language,
        meta: { url: location.href, source: props.action, userAgent: navigator.userAgent },
      });
      responseId = created.id as string;
      props.onResponseCreated?.();
    } else {
      await call(url('v1', `/responses/${responseId}`), 'PUT', {
        finished: update.finished,
        data: update.data,
        ttc: update.ttc,
        language,
      });
    }
  };
  const flush = async () => {
    if (sending) return;
    sending = true;
    try {
      while (waiting.length) {
        await send(waiting[0]);
        if (waiting.shift()!.finished) setFinished(true);
      }
    } catch (error) {
      console.error('Ensign survey: a response could not be sent', error);
      setError(true);
    } finally {
      sending = false;
    }
  };

  const modal: RenderSurveyModalProps = {
    survey,
    brandColor: props.styling?.brandColor?.light ?? '#64748b',
    highlightBorderColor: props.styling?.highlightBorderColor?.light ?? null,
    isBrandingEnabled: props.isBrandingEnabled !== false,
    clickOutside: props.clickOutside === true,
    darkOverlay: props.overlay ? props.overlay === 'dark' : props.darkOverlay === true,
    placement: props.placement ?? 'bottomRight',
    getSetIsError: (setter) => {
      setError = setter;
    },
    getSetIsResponseSendingFinished: (setter) => {
      setFinished = setter;
    },
    onDisplay: async () => {
      try {
        const display = await call(url('v2', '/displays'), 'POST', { surveyId: survey.id, contactId });
        displayId = display.id as string;
        props.onDisplayCreated?.();
      } catch (error) {
        console.error('Ensign survey: the display could not be recorded', error);
      }
    },
    onResponse: (update) => {
      waiting.push(update);
      void flush();
    },
    onRetry: () => {
      setError(false);
      void flush();
    },
    onFinished: () => props.onFinished?.(),
    onClose: () => props.onClose?.(),
    onFileUpload: async (file, config) => {
      const signed = await call(url('v1', '/storage'), 'POST', {
        fileName: file.name,
        fileType: file.type,
        allowedFileExtensions: config?.allowedFileExtensions,
        surveyId: survey.id,
      });
      const form = new FormData();
      for (const [name, value] of Object.entries((signed.presignedFields ?? {}) as Record<string, string>))
        form.append(name, value);
      form.append('file', file);
      const uploaded = await fetch(signed.signedUrl as string, { method: 'POST', body: form });
      if (!uploaded.ok) throw new Error(`The upload failed: ${uploaded.status}`);
      return signed.fileUrl as string;
    },
  };
  if (props.mode === 'inline' && props.containerId) renderSurveyInline({ ...modal, containerId: props.containerId });
  else renderSurveyModal(modal);
}
