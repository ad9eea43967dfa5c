import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import type { Segment } from '../../../domain/flipt/types';
import { descriptionColumn, type ListColumn, ListPage } from '../../components/ListPage';
import { useSegments } from './api';
import { MATCH_TYPES } from './operators';

// Flipt 1.61's segment table: Key, Name, Match Type, Description, Created, Updated.
const COLUMNS: ListColumn<Segment, 'matchType'>[] = [
  {
    label: 'Match Type',
    sort: 'matchType',
    cell: (segment) => MATCH_TYPES.find((match) => match.matchType === segment.matchType)?.label ?? segment.matchType,
  },
  descriptionColumn(),
];

export default function SegmentsPage() {
  const namespaceKey = useNamespaceKey();
  const segments = useSegments(namespaceKey);
  return (
    <ListPage
      entity="segment"
      newHref={namespacePath(namespaceKey, '/segments/new')}
      list={segments}
      columns={COLUMNS}
      rowHref={(segment) => namespacePath(namespaceKey, `/segments/${encodeURIComponent(segment.key)}`)}
      emptyHint="A segment groups entities by the properties of their context, for rules and rollouts to target. Create the first one with New Segment."
    />
  );
}
