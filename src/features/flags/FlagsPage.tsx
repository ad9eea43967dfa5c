import '../../app/shared-chunk';
import type { Flag } from '../../../domain/flipt/types';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { ListPage } from '../../components/ListPage';
import { READ_ONLY_TITLE, useReadOnly } from '../../api/meta';
import { useFlags } from './queries';
import { flagTypeLabel } from './labels';

const EMPTY: Flag[] = [];
const COLUMNS = [
  ['key', 'Key'],
  ['name', 'Name'],
  ['type', 'Type'],
  ['enabled', 'Enabled'],
  ['createdAt', 'Created'],
] as const;

export default function FlagsPage() {
  const namespaceKey = useNamespaceKey();
  const readOnly = useReadOnly();
  const flags = useFlags(namespaceKey);
  return (
    <ListPage
      title="Flags"
      newLabel="New Flag"
      newHref={namespacePath(namespaceKey, '/flags/new')}
      readOnly={readOnly}
      readOnlyTitle={READ_ONLY_TITLE}
      query={flags}
      items={flags.data?.flags ?? EMPTY}
      searchLabel="Search flags"
      columns={COLUMNS}
      rowHref={(flag) => namespacePath(namespaceKey, `/flags/${encodeURIComponent(flag.key)}`)}
      cells={(flag) => (
        <>
          <td>{flagTypeLabel(flag.type)}</td>
          <td>{flag.enabled ? 'Enabled' : 'Disabled'}</td>
        </>
      )}
      emptyMessage="No flags yet."
      noMatchMessage="No flags match your search."
    />
  );
}
