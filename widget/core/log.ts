/** Logger and the global error handler: errors by default, debug on request. */
/**
 * The loader's shared switches. Size trick: names ending in `_` are internal, and the loader builds
 * shorten them (esbuild mangleProps in tsup.config.ts); no wire, public or stored name ends in `_`.
 */
export const flags: {
  /** debug logging on */
  debug_?: boolean;
  /** init was called: its handler (the custom one, or none for the default) is installed */
  handlerSet_?: boolean;
  handler_?: (error: unknown) => void;
  initialized_?: boolean;
  /** init({ rendererUrl }) */
  rendererUrl_?: string;
  /** set up by setup() (the 5.x face), not by init() */
  current_?: boolean;
  /** setNonce(): the CSP nonce of the renderer's script */
  nonce_?: string;
} = {};

const out = (method: 'log' | 'error', level: string, message: string): void =>
  console[method](`🧱 Formbricks - ${new Date().toISOString()} [${level}] - ${message}`);
export const debug = (message: string): void => void (flags.debug_ && out('log', 'DEBUG', message));
export const error = (message: string): void => out('error', 'ERROR', message);

export const handle = (e: unknown): void => {
  try {
    console.warn('🧱 Formbricks - Global error: ', e);
    if (flags.handler_) flags.handler_(e);
    else error(e instanceof Error ? e.message : JSON.stringify(e));
  } catch {
    // a throwing custom handler must not reach the host page
  }
};

/** Throws an Error with this message (usable inside expressions). */
export const raise = (message: string): never => {
  throw new Error(message);
};
