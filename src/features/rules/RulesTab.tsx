import '../../app/shared-chunk';
import type { FlagTabProps } from '../flags/tabs';

/** Placeholder: the rules of a variant flag arrive with the rules issue. */
export default function RulesTab({ flag }: FlagTabProps) {
  return (
    <section aria-label="Rules">
      <h2>Rules</h2>
      <p className="muted">Rules for {flag.key} are not available yet.</p>
    </section>
  );
}
