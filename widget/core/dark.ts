/** The nightwind-mode dark-mode helper: the chosen mode in local storage, `dark` on <html>. */
export const DARK_KEY = 'nightwind-mode';

export type Mode = 'dark' | 'light';

/** Sets the mode when given; otherwise applies the stored one, else the system preference. */
export const darkMode = (mode?: Mode): Mode => {
  try {
    mode ||=
      (localStorage.getItem(DARK_KEY) as Mode | null) ||
      (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
    localStorage.setItem(DARK_KEY, mode);
  } catch {
    mode ||= 'light';
  }
  document.documentElement.classList.toggle('dark', mode === 'dark');
  return mode;
};
