/**
 * Flipt emits RFC 3339 UTC timestamps whose fraction has 0, 3, 6 or 9 digits: trailing zero
 * triplets are trimmed. Stored timestamps carry 6 digits.
 */
export function formatTimestamp(stored: string): string {
  return stored.replace(/\.(\d*?)((?:000)+)Z$/, (_match, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}
