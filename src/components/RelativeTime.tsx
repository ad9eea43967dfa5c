import { usePreferencesStore } from '../stores/preferences';
import { fromNow } from '../lib/time';
import { formatTimestamp } from '../lib/timestamp';

/** A relative time; hovering shows the absolute time in the chosen timezone. */
export function RelativeTime({ value }: { value: string }) {
  const timezone = usePreferencesStore((state) => state.timezone);
  return (
    <time dateTime={value} title={formatTimestamp(value, timezone)}>
      {fromNow(value)}
    </time>
  );
}
