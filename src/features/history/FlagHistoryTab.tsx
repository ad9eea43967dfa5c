import '../../app/shared-chunk';
import { HistoryEntries } from './HistoryEntries';

/** A flag's History tab: every change of the flag, its variants, rules, distributions and rollouts. */
export default function FlagHistoryTab({ namespaceKey, flag }: { namespaceKey: string; flag: { key: string } }) {
  return (
    <section aria-label="History">
      <HistoryEntries namespaceKey={namespaceKey} filter={{ entityType: 'flag', entityKey: flag.key }} />
    </section>
  );
}
