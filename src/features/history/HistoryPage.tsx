import '../../app/shared-chunk';
import { useState } from 'react';
import { useNamespaceKey } from '../../lib/namespace';
import { usePreferencesStore } from '../../stores/preferences';
import { HistoryEntries } from './HistoryEntries';
import { HistoryFilters } from './HistoryFilters';
import { type FilterValues, NO_FILTER, toHistoryFilter } from './schemas';

/** The namespace's History: every change to its flags, segments and itself, newest first. */
export default function HistoryPage() {
  const namespaceKey = useNamespaceKey();
  const timezone = usePreferencesStore((state) => state.timezone);
  const [values, setValues] = useState<FilterValues>(NO_FILTER);
  return (
    <section>
      <header className="page-header">
        <h1>History</h1>
      </header>
      <HistoryFilters onApply={setValues} />
      <HistoryEntries namespaceKey={namespaceKey} filter={toHistoryFilter(values, timezone)} showEntity />
    </section>
  );
}
