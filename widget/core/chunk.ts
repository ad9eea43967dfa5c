/**
 * Loads the survey chunk (survey.ts): only when a survey could show (from init(), alongside a sync that
 * tells whether one can), when responses wait in local storage, or for a file upload. How a build imports
 * it, and how the loader starts it with its own parts, comes from the build's entry (global.ts, module.ts).
 */
import type { TSurvey, TUploadFileConfig } from '../../domain/surveys/types.js';
import { error } from './log.js';
import { QUEUE_KEY, read } from './store.js';

/** Hidden fields offered to a survey: those it declares are added to its response (survey.ts). */
export type Fields = Record<string, unknown>;

export const CHUNK_FAILED = 'Failed to load the Formbricks survey chunk';

/** What the survey chunk, once started, does for the loader. */
export interface SurveyChunk {
  /**
   * Shows a survey with the hidden fields offered to it, its renderer script loaded with the CSP nonce
   * given; with no survey, loads the renderer and has it rehearse (survey.ts).
   */
  render(survey: TSurvey | undefined, rendererUrl: string, fields?: Fields, nonce?: string): Promise<void>;
  /** Forgets the survey running or waiting for its delay, and the live run. */
  reset(): void;
  /** Sends the responses still waiting. */
  flush(): Promise<void>;
  /** `storage.uploadFile` of the client API under `base`. */
  upload(base: string, file: File, config?: TUploadFileConfig): Promise<string>;
}

/**
 * Where the IIFE loader finds the chunk, built next to it (dist/widget): next to its own script, wherever
 * that was loaded from (a real Formbricks server as apiHost does not serve it). With no script URL (an
 * inline copy of the loader): `{apiHost}/js/`, where our server serves it.
 */
export const chunkUrl = (loaderUrl: string | undefined, apiHost?: string): string =>
  new URL('formbricks-survey.mjs', loaderUrl || apiHost + '/js/').href;

type ImportChunk = (apiHost?: string) => Promise<SurveyChunk>;
let importChunk: ImportChunk;
/** How this build imports and starts the chunk: set by its entry (global.ts, module.ts). */
export const setChunkImport = (f: ImportChunk): void => {
  importChunk = f;
};

let loading: Promise<SurveyChunk | undefined> | undefined;
/** The chunk, once loaded. */
export let loaded: SurveyChunk | undefined;

const load = async (apiHost?: string): Promise<SurveyChunk | undefined> => {
  try {
    return (loaded = await importChunk(apiHost));
  } catch (e) {
    error(CHUNK_FAILED + ': ' + e);
    loading = undefined;
  }
};
/** The survey chunk, loaded once (again after a failure, which is logged). Never rejects. */
export const surveyChunk = (apiHost?: string): Promise<SurveyChunk | undefined> => (loading ||= load(apiHost));

/** Sends the responses still waiting, loading the chunk only if some wait in local storage. */
export const sendUnsent = (apiHost?: string): void => {
  if (loaded || read(QUEUE_KEY)) void surveyChunk(apiHost).then((chunk) => chunk?.flush());
};
