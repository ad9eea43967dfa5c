import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { ListPage } from '../../components/ListPage';
import { useSegments } from './api';
import { MATCH_TYPES } from './operators';

const COLUMNS = [
  ['key', 'Key'],
  ['name', 'Name'],
  ['matchType', 'Match Type'],
  ['createdAt', 'Created'],
] as const;

export default function SegmentsPage() {
  const namespaceKey = useNamespaceKey();
  const segments = useSegments(namespaceKey);
  return (
    <ListPage
      title="Segments"
      newLabel="New Segment"
      newHref={namespacePath(namespaceKey, '/segments/new')}
      list={segments}
      noun="segments"
      searchLabel="Search segments"
      columns={COLUMNS}
      rowHref={(segment) => namespacePath(namespaceKey, `/segments/${encodeURIComponent(segment.key)}`)}
      cells={(segment) => (
        <td>{MATCH_TYPES.find((match) => match.matchType === segment.matchType)?.label ?? segment.matchType}</td>
      )}
      emptyMessage="No segments yet."
      emptyHint="A segment groups entities by the properties of their context, for rules and rollouts to target. Create the first one with New Segment."
      noMatchMessage="No segments match your search."
    />
  );
}
