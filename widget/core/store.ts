import type { TJsConfig } from '../../domain/surveys/types.js';
import { raise } from './log.js';

export const KEY = 'formbricks-js';
/** Beyond @formbricks/js: survey runs with unsent responses survive a reload under this key (responses.ts). */
export const QUEUE_KEY = 'formbricks-js-responses';
export const MINUTE = 60_000;

/** JSON in local storage; never throws (storage may be full, disabled or hold garbage). */
export const read = <T>(key: string): T | null => {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null') as T | null;
  } catch {
    return null;
  }
};
export const write = (key: string, value: unknown): void => {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage unavailable: the in-memory copy still works for this page
  }
};

export const randomId = (): string => Math.random().toString(36);
export const iso = (inMs = 0): string => new Date(Date.now() + inMs).toISOString();
export const expired = (c: { expiresAt?: string } | null): boolean =>
  !(Date.parse(c?.expiresAt as string) >= Date.now());

let current: TJsConfig | null = null;

export const cfg = (): TJsConfig => current || raise('config is null, maybe the init function was not called?');
export const peek = (): TJsConfig | null => current;
export const save = (c: TJsConfig | null): void => {
  current = c;
  write(KEY, c);
};
export const use = (c: TJsConfig | null): void => {
  current = c;
};
