import '../../app/shared-chunk';
import { HistoryEntries } from './HistoryEntries';

/** A segment's history: every change of the segment and its constraints. */
export default function SegmentHistory({ namespaceKey, segmentKey }: { namespaceKey: string; segmentKey: string }) {
  return <HistoryEntries namespaceKey={namespaceKey} filter={{ entityType: 'segment', entityKey: segmentKey }} />;
}
