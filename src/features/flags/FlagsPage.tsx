import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { ListPage } from '../../components/ListPage';
import { READ_ONLY_TITLE, useReadOnly } from '../../api/meta';
import { useFlags } from './queries';
import { flagTypeLabel } from './labels';

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
      list={flags}
      noun="flags"
      searchLabel="Search flags"
      columns={COLUMNS}
      rowHref={(flag) => namespacePath(namespaceKey, `/flags/${encodeURIComponent(flag.key)}`)}
      cells={(flag) => (
        <>
          <td>
            <span className="badge badge-type">{flagTypeLabel(flag.type)}</span>
          </td>
          <td>
            <span className={flag.enabled ? 'status status-on' : 'status'}>
              {flag.enabled ? 'Enabled' : 'Disabled'}
            </span>
          </td>
        </>
      )}
      emptyMessage="No flags yet."
      emptyHint="A flag turns a feature on or off, or chooses among its variants, for each entity. Create the first one with New Flag."
      noMatchMessage="No flags match your search."
    />
  );
}
