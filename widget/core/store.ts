import type { TJsConfig } from '../../domain/surveys/types.js';

export const KEY = 'formbricks-js';
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

export const iso = (inMs = 0): string => new Date(Date.now() + inMs).toISOString();
export const expired = (c: { expiresAt?: string } | null): boolean => !c || !(new Date(c.expiresAt || 0).getTime() >= Date.now());

let current: TJsConfig | null = null;

export const cfg = (): TJsConfig => {
  if (!current) throw new Error('config is null, maybe the init function was not called?');
  return current;
};
export const peek = (): TJsConfig | null => current;
export const save = (c: TJsConfig | null): void => {
  current = c;
  write(KEY, c);
};
export const use = (c: TJsConfig | null): void => {
  current = c;
};
