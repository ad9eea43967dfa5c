import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNamespaceStore } from '../../../src/stores/namespace';
import { effectiveTheme, usePreferencesStore } from '../../../src/stores/preferences';
import { useRefStore } from '../../../src/stores/ref';
import { sessionUser, useSessionStore } from '../../../src/stores/session';
import { useBannerStore, useNotificationStore, useOnboardingStore } from '../../../src/stores/ui';
import { SUCCESS_TOAST_MS, toastOutcome, useToastStore } from '../../../src/stores/toasts';
import { toConfig } from '../../../src/api/meta';

const stored = (key: string, storage: Storage = localStorage) => JSON.parse(storage.getItem(key) ?? 'null')?.state;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('persisted stores', () => {
  it('keeps the current namespace under "namespace", default "default"', () => {
    expect(useNamespaceStore.getState().current).toBe('default');
    useNamespaceStore.getState().setCurrent('staging');
    expect(stored('namespace')).toEqual({ current: 'staging' });
  });

  it('keeps the session under "session"', () => {
    useSessionStore.getState().setSession({ required: false, authenticated: false });
    expect(stored('session')).toEqual({ session: { required: false, authenticated: false } });
  });

  it('keeps preferences, onboarding, banner and the current ref in local storage', () => {
    usePreferencesStore.getState().setTheme('dark');
    usePreferencesStore.getState().setTimezone('local');
    useOnboardingStore.getState().complete();
    useBannerStore.getState().dismiss();
    useRefStore.getState().setRef('main');
    expect(stored('preferences')).toEqual({ theme: 'dark', timezone: 'local' });
    expect(stored('onboarding')).toEqual({ completed: true });
    expect(stored('banner')).toEqual({ dismissed: true });
    expect(stored('ref')).toEqual({ ref: 'main' });
  });

  it('keeps the new-notification flag in session storage', () => {
    expect(useNotificationStore.getState().unseen).toBe(true);
    useNotificationStore.getState().markSeen();
    expect(stored('new-notification', sessionStorage)).toEqual({ unseen: false });
    expect(localStorage.getItem('new-notification')).toBeNull();
  });
});

describe('timezone', () => {
  it('defaults to local, as Flipt 1.53 and later, and keeps a chosen UTC', () => {
    expect(usePreferencesStore.getInitialState().timezone).toBe('local');
    usePreferencesStore.getState().setTimezone('utc');
    expect(stored('preferences')).toMatchObject({ timezone: 'utc' });
  });
});

describe('theme', () => {
  it('defaults to system, takes the server default unless one is stored locally', () => {
    expect(effectiveTheme(undefined, undefined)).toBe('system');
    expect(effectiveTheme(undefined, 'dark')).toBe('dark');
    expect(effectiveTheme('light', 'dark')).toBe('light');
    expect(effectiveTheme(undefined, 'purple')).toBe('system');
  });
});

describe('config', () => {
  it('is read-only when readOnly is missing and the storage type differs from database', () => {
    expect(toConfig({}).storage).toEqual({ type: 'database', readOnly: false, git: undefined });
    expect(toConfig({ storage: { type: 'database' } }).storage.readOnly).toBe(false);
    expect(toConfig({ storage: { type: 'local' } }).storage.readOnly).toBe(true);
    expect(toConfig({ storage: { type: 'git', readOnly: false } }).storage.readOnly).toBe(false);
    expect(toConfig({ storage: { type: 'database', readOnly: true } }).storage.readOnly).toBe(true);
  });

  it('has the spec defaults and derives analyticsEnabled', () => {
    expect(toConfig({})).toEqual({
      storage: { type: 'database', readOnly: false, git: undefined },
      ui: { defaultTheme: 'system', topbar: { color: '', label: '' }, banner: undefined },
      analyticsEnabled: false,
    });
    expect(toConfig({ analytics: { storage: { clickhouse: { enabled: true } } } }).analyticsEnabled).toBe(true);
  });
});

describe('session user', () => {
  it('derives name, picture, login and issuer from the method metadata, the name falling back to User', () => {
    expect(
      sessionUser({
        method: 'METHOD_GITHUB',
        metadata: {
          'io.flipt.auth.github.name': 'Ada',
          'io.flipt.auth.github.picture': 'https://avatars/ada.png',
          'io.flipt.auth.github.preferred_username': 'ada',
        },
      }),
    ).toEqual({
      authMethod: 'METHOD_GITHUB',
      name: 'Ada',
      imgURL: 'https://avatars/ada.png',
      login: 'ada',
      issuer: undefined,
    });
    expect(
      sessionUser({ method: 'METHOD_JWT', metadata: { 'io.flipt.auth.jwt.issuer': 'https://issuer' } }),
    ).toMatchObject({
      name: 'User',
      issuer: 'https://issuer',
    });
    expect(sessionUser({ method: 'METHOD_OIDC', metadata: null }).name).toBe('User');
  });
});

describe('toasts', () => {
  afterEach(() => vi.useRealTimers());

  it('removes success toasts after 3 s and keeps errors until dismissed', () => {
    vi.useFakeTimers();
    const store = useToastStore.getState();
    store.push('success', 'Successfully created flag');
    store.push('error', 'boom');
    expect(useToastStore.getState().toasts.map((toast) => toast.message)).toEqual([
      'Successfully created flag',
      'boom',
    ]);
    vi.advanceTimersByTime(SUCCESS_TOAST_MS);
    const [error] = useToastStore.getState().toasts;
    expect(error).toMatchObject({ kind: 'error', message: 'boom' });
    useToastStore.getState().dismiss(error.id);
    expect(useToastStore.getState().toasts).toEqual([]);
  });

  it('reports an action: its success message, or the error it failed with', async () => {
    await toastOutcome(Promise.resolve('done'), 'Successfully deleted survey');
    await toastOutcome(Promise.reject(new Error('survey is in use')), 'Successfully deleted survey');
    expect(useToastStore.getState().toasts.map(({ kind, message }) => ({ kind, message }))).toEqual([
      { kind: 'success', message: 'Successfully deleted survey' },
      { kind: 'error', message: 'survey is in use' },
    ]);
    for (const toast of useToastStore.getState().toasts) useToastStore.getState().dismiss(toast.id);
  });
});
