import '../../app/shared-chunk';
import { Link } from 'wouter';
import { namespacePath } from '../../lib/paths';
import { HistoryEntries } from './HistoryEntries';

/** A flag's History tab: every change of the flag, its variants, rules, distributions and rollouts. */
export default function FlagHistoryTab({ namespaceKey, flag }: { namespaceKey: string; flag: { key: string } }) {
  return (
    <section aria-label="History">
      <p>
        <Link href={namespacePath(namespaceKey, '/history')}>Every change in this namespace</Link>
      </p>
      <HistoryEntries namespaceKey={namespaceKey} filter={{ entityType: 'flag', entityKey: flag.key }} />
    </section>
  );
}
