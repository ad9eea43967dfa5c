export const TRUNCATE_LENGTH = 25;
export const COMMIT_LENGTH = 7;

/** Cuts a text to `length` characters and appends '...' when it was longer. */
export function truncate(text: string, length = TRUNCATE_LENGTH): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

export function shortCommit(commit: string): string {
  return commit.slice(0, COMMIT_LENGTH);
}

/** Keys typed or derived from a name: whitespace becomes a hyphen. */
export function stringAsKey(text: string): string {
  return text.replace(/\s/g, '-');
}

/** Whether the text is an http(s) URL: the only kind the console navigates to from data it was given. */
export function isWebUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}
