/**
 * The events of today's @formbricks/js (docs/compatibility.md, "The 5.x face"): `on` and `off`, and `emit`, which
 * calls every subscriber of an event with its payload. A throwing subscriber goes to the error handler.
 */
import { handle } from './log.js';

/** The event names without their common `formbricks_` prefix. */
export type EventName = 'setup_successful' | 'action_tracked' | 'survey_shown' | 'response_submitted' | 'survey_closed';
export type Handler = (payload: object) => void;

const subscribers: [string, Handler][] = [];

export const off = (event: string, handler: Handler): void => {
  const i = subscribers.findIndex(([e, h]) => e === event && h === handler);
  if (i >= 0) subscribers.splice(i, 1);
};

/** Subscribes; returns the function that removes this subscription. */
export const on = (event: string, handler: Handler): (() => void) => {
  subscribers.push([event, handler]);
  return () => off(event, handler);
};

export const emit = (event: EventName, payload: object): void => {
  for (const [e, h] of [...subscribers]) {
    if (e === 'formbricks_' + event) {
      try {
        h(payload);
      } catch (x) {
        handle(x);
      }
    }
  }
};
