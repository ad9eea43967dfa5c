/**
 * Loads the survey chunk (survey.ts): only when a survey is about to show (alongside the renderer), when
 * responses wait in local storage, or for a file upload. It gets the loader's own config store, client and logger.
 */
import type { SurveyChunk } from './survey.js';
import { client } from './api.js';
import { debug, error, handle } from './log.js';
import { QUEUE_KEY, cfg, read, save } from './store.js';
import { errorState, sync } from './sync.js';
import { deinit } from './triggers.js';

/** The chunk's file, next to the loader's (dist/widget). */
export const CHUNK_FILE = 'formbricks-survey.mjs';
export const CHUNK_FAILED = 'Failed to load the Formbricks survey chunk';

/**
 * Where the IIFE loader finds the chunk: next to its own script, wherever that was loaded from (a real
 * Formbricks server as apiHost does not serve it). With no script URL (an inline copy of the loader):
 * `{apiHost}/js/`, where our server serves it.
 */
export const chunkUrl = (loaderUrl: string | undefined, apiHost?: string): string =>
  new URL(CHUNK_FILE, loaderUrl || apiHost + '/js/').href;

type ImportChunk = (apiHost?: string) => Promise<typeof import('./survey.js')>;
let importChunk: ImportChunk;
/** How this build imports the chunk: set by its entry (global.ts, module.ts). */
export const setChunkImport = (f: ImportChunk): void => {
  importChunk = f;
};

let loading: Promise<SurveyChunk | undefined> | undefined;
/** The chunk, once loaded. */
export let loaded: SurveyChunk | undefined;

const load = async (apiHost?: string): Promise<SurveyChunk | undefined> => {
  try {
    return (loaded = (await importChunk(apiHost)).default(cfg, save, client, sync, errorState, deinit, debug, handle));
  } catch (e) {
    error(`${CHUNK_FAILED}: ${e}`);
    loading = undefined;
  }
};
/** The survey chunk, loaded once (again after a failure, which is logged). Never rejects. */
export const surveyChunk = (apiHost?: string): Promise<SurveyChunk | undefined> => (loading ||= load(apiHost));

/** Sends the responses still waiting, loading the chunk only if some wait in local storage. */
export const sendUnsent = (apiHost?: string): void => {
  if (loaded || read(QUEUE_KEY)) void surveyChunk(apiHost).then((chunk) => chunk?.flush());
};
