import { AsyncLocalStorage } from 'node:async_hooks';
import type { Actor } from './history.js';

/** The actor of the request being handled, for the history entries its writes record. */
const actors = new AsyncLocalStorage<Actor>();

export const currentActor = (): Actor | undefined => actors.getStore();

/** Runs `work` (and everything it starts) as `actor`. */
export function runAs<T>(actor: Actor, work: () => T): T {
  return actors.run(actor, work);
}
