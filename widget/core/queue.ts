import { flags, handle } from './log.js';

const pending: Array<() => Promise<unknown>> = [];
let running: Promise<void> | undefined;

/**
 * The command queue: runs commands one at a time; whatever a command throws goes to the global error
 * handler. The returned promise resolves once the queue has drained and never rejects.
 */
export const q = <A extends unknown[]>(
  checkInit: boolean,
  command: (...args: A) => unknown,
  ...args: A
): Promise<void> => {
  pending.push(async () => {
    if (checkInit && !(flags.initialized_ && flags.handlerSet_)) {
      throw { code: 'not_initialized', message: 'Formbricks not initialized. Call initialize() first.' };
    }
    await command(...args);
  });
  return (running ||= (async () => {
    while (pending.length) {
      try {
        await pending.shift()!();
      } catch (e) {
        handle(e);
      }
    }
    running = undefined;
  })());
};
