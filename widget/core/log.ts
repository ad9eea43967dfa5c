/** Logger and the global error handler (spec §8): errors by default, debug on request. */
let debugOn = false;

export const setDebug = (on: boolean): void => {
  debugOn = on;
};
export const isDebug = (): boolean => debugOn;

const out = (level: 'debug' | 'error', message: string): void => {
  if (level === 'error' || debugOn) {
    console[level === 'error' ? 'error' : 'log'](`🧱 Formbricks - ${new Date().toISOString()} [${level.toUpperCase()}] - ${message}`);
  }
};
export const debug = (message: string): void => out('debug', message);
export const error = (message: string): void => out('error', message);

let custom: ((error: unknown) => void) | undefined;
let installed = false;

/** `init` installs the handler (the custom one, or the default) before anything is queued. */
export const setHandler = (handler?: (error: unknown) => void): void => {
  custom = handler;
  installed = true;
};
export const hasHandler = (): boolean => installed;

export const handle = (e: unknown): void => {
  try {
    console.warn('🧱 Formbricks - Global error: ', e);
    if (custom) custom(e);
    else error(e instanceof Error ? e.message : JSON.stringify(e));
  } catch {
    // a throwing custom handler must not reach the host page
  }
};

/** Throws an Error with this message (usable inside expressions). */
export const raise = (message: string): never => {
  throw new Error(message);
};
