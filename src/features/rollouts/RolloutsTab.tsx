import '../../app/shared-chunk';
import type { FlagTabProps } from '../flags/tabs';

/** Placeholder: the rollouts of a boolean flag arrive with the rollouts issue. */
export default function RolloutsTab({ flag }: FlagTabProps) {
  return (
    <section aria-label="Rollouts">
      <h2>Rollouts</h2>
      <p className="muted">Rollouts for {flag.key} are not available yet.</p>
    </section>
  );
}
