import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type Theme = 'light' | 'dark' | 'system';
export type Timezone = 'utc' | 'local';
export const THEMES: readonly Theme[] = ['light', 'dark', 'system'];

interface PreferencesState {
  /** Only set once the user picks a theme; until then the server's ui.defaultTheme applies. */
  theme?: Theme;
  /** Local by default, as Flipt's console since 1.53: times read as the operator's clock shows them. */
  timezone: Timezone;
  setTheme(theme: Theme): void;
  setTimezone(timezone: Timezone): void;
}

export const usePreferencesStore = create<PreferencesState>()(
  persist(
    (set) => ({
      timezone: 'local',
      setTheme: (theme) => set({ theme }),
      setTimezone: (timezone) => set({ timezone }),
    }),
    { name: 'preferences' },
  ),
);

/** Theme defaults to system, overridden by the server's default unless one is stored locally. */
export function effectiveTheme(stored: Theme | undefined, serverDefault: string | undefined): Theme {
  if (stored) return stored;
  return THEMES.includes(serverDefault as Theme) ? (serverDefault as Theme) : 'system';
}
