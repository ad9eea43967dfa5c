import { usePreferencesStore } from '../stores/preferences';
import { formatTimestamp, fromNow } from '../lib/time';

/** A relative time; hovering shows the absolute time in the chosen timezone. */
export function RelativeTime({ value }: { value: string }) {
  const timezone = usePreferencesStore((state) => state.timezone);
  return (
    <time dateTime={value} title={formatTimestamp(value, timezone)}>
      {fromNow(value)}
    </time>
  );
}

export function Timestamp({ value }: { value: string }) {
  const timezone = usePreferencesStore((state) => state.timezone);
  return <time dateTime={value}>{formatTimestamp(value, timezone)}</time>;
}
