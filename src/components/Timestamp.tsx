import { usePreferencesStore } from '../stores/preferences';
import { formatTimestamp } from '../lib/timestamp';

/** An absolute time in the chosen timezone. */
export function Timestamp({ value }: { value: string }) {
  const timezone = usePreferencesStore((state) => state.timezone);
  return <time dateTime={value}>{formatTimestamp(value, timezone)}</time>;
}
