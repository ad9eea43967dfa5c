/**
 * Flipt emits RFC 3339 UTC timestamps whose fraction has 0, 3, 6 or 9 digits: trailing zero
 * triplets are trimmed. Stored timestamps carry 6 digits.
 */
export function formatTimestamp(stored: string): string {
  return stored.replace(/\.(\d*?)((?:000)+)Z$/, (_match, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

/** The stored form (6 fraction digits) of a timestamp as Flipt emits it. */
export function storedTimestamp(emitted: string): string {
  return emitted.replace(
    /(?:\.(\d{1,9}))?Z$/,
    (_match, digits: string | undefined) => `.${(digits ?? '').padEnd(6, '0').slice(0, 6)}Z`,
  );
}
