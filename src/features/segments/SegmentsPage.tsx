import '../../app/shared-chunk';
import { Link } from 'wouter';
import type { Segment } from '../../../domain/flipt/types';
import { useNamespaceKey } from '../../app/namespace';
import { namespacePath } from '../../app/routes';
import { Pagination } from '../../components/Pagination';
import { SortHeader } from '../../components/SortHeader';
import { Timestamp } from '../../components/Timestamp';
import { truncate } from '../../lib/format';
import { useTable } from '../../lib/table';
import { READ_ONLY_TITLE, useReadOnly } from '../meta/queries';
import { useSegments } from './queries';
import { MATCH_TYPES } from './operators';

const SEARCH_FIELDS = ['key', 'name'] as const;
const EMPTY: Segment[] = [];
const COLUMNS = [
  ['key', 'Key'],
  ['name', 'Name'],
  ['matchType', 'Match Type'],
  ['createdAt', 'Created'],
] as const;

export default function SegmentsPage() {
  const namespaceKey = useNamespaceKey();
  const readOnly = useReadOnly();
  const segments = useSegments(namespaceKey);
  const table = useTable<Segment, (typeof COLUMNS)[number][0]>(segments.data?.segments ?? EMPTY, SEARCH_FIELDS, 'key');
  return (
    <section>
      <header className="page-header">
        <h1>Segments</h1>
        {readOnly ? (
          <button type="button" className="button button-primary" disabled title={READ_ONLY_TITLE}>
            New Segment
          </button>
        ) : (
          <Link href={namespacePath(namespaceKey, '/segments/new')} className="button button-primary">
            New Segment
          </Link>
        )}
      </header>
      {segments.isError && <p role="alert">{segments.error.message}</p>}
      <input
        type="search"
        className="search"
        aria-label="Search segments"
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
          {table.pageRows.map((segment) => (
            <tr key={segment.key}>
              <td>
                <Link href={namespacePath(namespaceKey, `/segments/${encodeURIComponent(segment.key)}`)}>{truncate(segment.key)}</Link>
              </td>
              <td>{truncate(segment.name)}</td>
              <td>{MATCH_TYPES.find((match) => match.matchType === segment.matchType)?.label ?? segment.matchType}</td>
              <td>
                <Timestamp value={segment.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {segments.isSuccess && table.total === 0 && (
        <p className="muted">{table.search ? 'No segments match your search.' : 'No segments yet.'}</p>
      )}
      <Pagination page={table.page} total={table.total} onPage={table.setPage} />
    </section>
  );
}
