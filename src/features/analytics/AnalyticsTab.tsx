import '../../app/shared-chunk';
import type { FlagTabProps } from '../flags/tabs';

/** Placeholder: flag analytics arrive with the analytics issue. */
export default function AnalyticsTab({ flag }: FlagTabProps) {
  return (
    <section aria-label="Analytics">
      <h2>Analytics</h2>
      <p className="muted">Analytics for {flag.key} are not available yet.</p>
    </section>
  );
}
