import { useState } from 'react';
import { Link } from 'wouter';
import type { HistoryEntry } from '../../../domain/flipt/history';
import { useWritable } from '../../api/writable';
import { DiffTable } from '../../components/DiffTable';
import { RelativeTime } from '../../components/RelativeTime';
import { ReasonButton } from '../../components/Tooltip';
import { namespacePath } from '../../lib/paths';
import { entityDiff } from './diff';
import { RevertDialog } from './RevertDialog';

const enc = encodeURIComponent;

function EntityLink({ entry }: { entry: HistoryEntry }) {
  const section = entry.entityType === 'flag' ? 'flags' : entry.entityType === 'segment' ? 'segments' : undefined;
  const name = `${entry.entityType} ${entry.entityKey}`;
  if (!section || entry.after === null) return <span>{name}</span>;
  return <Link href={namespacePath(entry.namespaceKey, `/${section}/${enc(entry.entityKey)}`)}>{name}</Link>;
}

/** The entry a revert undid, named in the revert's own entry. */
const revertOf = (entry: HistoryEntry) => (entry.payload as { revertOf?: unknown } | null)?.revertOf;

/** Why a feedback guard made the change (its payload says), or undefined for any other change. */
const guardReason = (entry: HistoryEntry) => {
  const reason = (entry.payload as { guard?: { reason?: unknown } } | null)?.guard?.reason;
  return typeof reason === 'string' ? reason : undefined;
};

/** One change: what, by whom, when, its before/after diff, and a Revert that asks first. */
export function HistoryEntryCard({
  namespaceKey,
  entry,
  showEntity,
}: {
  namespaceKey: string;
  entry: HistoryEntry;
  showEntity: boolean;
}) {
  const writable = useWritable();
  const [reverting, setReverting] = useState(false);
  const what = `${entry.noun} ${entry.action}`;
  const reverted = revertOf(entry);
  const why = guardReason(entry);
  return (
    <article className="history-entry" aria-label={`${what} by ${entry.actor}`}>
      <header className="history-entry-header">
        <strong>{what}</strong>
        {showEntity && <EntityLink entry={entry} />}
        <span>by {entry.actor}</span>
        <RelativeTime value={entry.createdAt} />
        {typeof reverted === 'string' && <span className="badge">revert of change {reverted}</span>}
        <ReasonButton
          className="button"
          reason={writable.reason}
          aria-label={`Revert change ${entry.id}`}
          onClick={() => setReverting(true)}
        >
          Revert
        </ReasonButton>
      </header>
      {why && <p className="history-reason">Feedback guard: {why}</p>}
      <DiffTable caption={`What ${what} changed`} rows={entityDiff(entry.entityType, entry.before, entry.after)} />
      {reverting && <RevertDialog namespaceKey={namespaceKey} entry={entry} onClose={() => setReverting(false)} />}
    </article>
  );
}
