import '../../app/shared-chunk';
import { Link } from 'wouter';
import type { Flag } from '../../../domain/flipt/types';
import { useNamespaceKey } from '../../app/namespace';
import { namespacePath } from '../../app/routes';
import { Pagination } from '../../components/Pagination';
import { SortHeader } from '../../components/SortHeader';
import { Timestamp } from '../../components/Timestamp';
import { truncate } from '../../lib/format';
import { useTable } from '../../lib/table';
import { READ_ONLY_TITLE, useReadOnly } from '../meta/queries';
import { useFlags } from './queries';
import { flagTypeLabel } from './labels';

const SEARCH_FIELDS = ['key', 'name'] as const;
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
  const table = useTable<Flag, (typeof COLUMNS)[number][0]>(flags.data?.flags ?? EMPTY, SEARCH_FIELDS, 'key');
  return (
    <section>
      <header className="page-header">
        <h1>Flags</h1>
        {readOnly ? (
          <button type="button" className="button button-primary" disabled title={READ_ONLY_TITLE}>
            New Flag
          </button>
        ) : (
          <Link href={namespacePath(namespaceKey, '/flags/new')} className="button button-primary">
            New Flag
          </Link>
        )}
      </header>
      {flags.isError && <p role="alert">{flags.error.message}</p>}
      <input
        type="search"
        className="search"
        aria-label="Search flags"
        placeholder="Search by key or name"
        value={table.search}
        onChange={(event) => table.setSearch(event.target.value)}
      />
      <table className="table">
        <thead>
          <tr>
            {COLUMNS.map(([column, label]) => (
              <SortHeader
                key={column}
                label={label}
                active={table.sort.column === column}
                direction={table.sort.direction}
                onSort={() => table.toggleSort(column)}
              />
            ))}
          </tr>
        </thead>
        <tbody>
          {table.pageRows.map((flag) => (
            <tr key={flag.key}>
              <td>
                <Link href={namespacePath(namespaceKey, `/flags/${encodeURIComponent(flag.key)}`)}>{truncate(flag.key)}</Link>
              </td>
              <td>{truncate(flag.name)}</td>
              <td>{flagTypeLabel(flag.type)}</td>
              <td>{flag.enabled ? 'Enabled' : 'Disabled'}</td>
              <td>
                <Timestamp value={flag.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {flags.isSuccess && table.total === 0 && <p className="muted">{table.search ? 'No flags match your search.' : 'No flags yet.'}</p>}
      <Pagination page={table.page} total={table.total} onPage={table.setPage} />
    </section>
  );
}
