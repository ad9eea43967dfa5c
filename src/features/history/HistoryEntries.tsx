import { NextPageButton } from '../../components/NextPageButton';
import { useHistory } from './api';
import type { HistoryFilter } from './schemas';
import { HistoryEntryCard } from './HistoryEntryCard';

interface HistoryEntriesProps {
  namespaceKey: string;
  filter: HistoryFilter;
  /** Names each entry's entity (the namespace-wide page); a flag's own tab need not. */
  showEntity?: boolean;
}

/** The changes matching the filter, newest first, with older pages loaded on demand. */
export function HistoryEntries({ namespaceKey, filter, showEntity = false }: HistoryEntriesProps) {
  const history = useHistory(namespaceKey, filter);
  if (history.isPending) return <p className="muted">Loading…</p>;
  if (history.isError) return <p role="alert">{history.error.message}</p>;
  const entries = history.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) return <p className="muted">No changes recorded.</p>;
  return (
    <>
      <ol className="history-list" aria-label="Changes">
        {entries.map((entry) => (
          <li key={entry.id}>
            <HistoryEntryCard namespaceKey={namespaceKey} entry={entry} showEntity={showEntity} />
          </li>
        ))}
      </ol>
      <NextPageButton query={history} label="Show older changes" />
    </>
  );
}
