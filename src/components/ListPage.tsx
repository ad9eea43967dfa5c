import type { ReactNode } from 'react';
import { ReasonButton } from './Tooltip';
import { Link, useLocation } from 'wouter';
import { useWritable } from '../api/writable';
import type { PagedList } from '../api/pagedList';
import { truncate } from '../lib/format';
import { useTable } from '../lib/table';
import { Pagination } from './Pagination';
import { SortHeader } from './SortHeader';
import { Timestamp } from './Timestamp';

interface ListItem {
  key: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

/** A column between the name and the times: its heading, the field it sorts by (none: it does not sort) and its cell. */
export interface ListColumn<T, C> {
  label: string;
  sort?: C;
  cell(item: T): ReactNode;
}

/** The item's description, shortened, as a column that does not sort (as in Flipt's tables). */
export const descriptionColumn = <T extends ListItem>(): ListColumn<T, never> => ({
  label: 'Description',
  cell: (item) => truncate(item.description),
});

const SKELETON_ROWS = [0, 1, 2];

const SEARCH_FIELDS = ['key', 'name'] as const;
const EMPTY: never[] = [];

interface ListPageProps<T extends ListItem, C extends keyof T & string> {
  /**
   * What a row is, "flag" or "segment": the page's words come from it (heading "Flags", button "New Flag",
   * "Search flags", "No flags yet.", "No flags match your search."), and its sort is kept under "flags"
   * while the console is open.
   */
  entity: 'flag' | 'segment';
  newHref: string;
  /** The list, fetched page by page; searched and sorted as its pages arrive. */
  list: PagedList<T>;
  /** The columns between Key and Name, first, and Created and Updated, last (all four sort). */
  columns: readonly ListColumn<T, C>[];
  rowHref(item: T): string;
  /** What the entity is for and how to make the first one, under the empty message. */
  emptyHint: string;
}

/**
 * A list page of keyed entities, as Flipt's flag and segment tables: heading and create button, search by
 * key or name, columns sorted by their heading (the sort kept while the console is open), pagination,
 * placeholder rows until the first page is in, and while the rest of the list loads, how much of it is in.
 */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function ListPage<T extends ListItem, C extends keyof T & string>(props: ListPageProps<T, C>) {
  const { list } = props;
  const columns: readonly ListColumn<T, C | 'key' | 'name' | 'createdAt' | 'updatedAt'>[] = [
    { label: 'Key', sort: 'key', cell: (item) => <Link href={props.rowHref(item)}>{truncate(item.key)}</Link> },
    { label: 'Name', sort: 'name', cell: (item) => truncate(item.name) },
    ...props.columns,
    { label: 'Created', sort: 'createdAt', cell: (item) => <Timestamp value={item.createdAt} /> },
    { label: 'Updated', sort: 'updatedAt', cell: (item) => <Timestamp value={item.updatedAt} /> },
  ];
  const table = useTable<T, C | 'key' | 'name' | 'createdAt' | 'updatedAt'>(
    list.items ?? EMPTY,
    SEARCH_FIELDS,
    'key',
    `${props.entity}s`,
  );
  const loading = !list.items && !list.isError;
  const [, navigate] = useLocation();
  const { reason } = useWritable();
  return (
    <section>
      <header className="page-header">
        <h1>{capitalised(`${props.entity}s`)}</h1>
        {/* A button, as in Flipt's console, so that operators' automation finds it by role. */}
        <ReasonButton className="button button-primary" reason={reason} onClick={() => navigate(props.newHref)}>
          New {capitalised(props.entity)}
        </ReasonButton>
      </header>
      {list.isError && <p role="alert">{list.error?.message}</p>}
      <input
        type="search"
        className="search"
        aria-label={`Search ${props.entity}s`}
        placeholder="Search by key or name"
        value={table.search}
        onChange={(event) => table.setSearch(event.target.value)}
      />
      <table className="table">
        <thead>
          <tr>
            {columns.map(({ label, sort }) =>
              sort ? (
                <SortHeader
                  key={label}
                  label={label}
                  active={table.sort.column === sort}
                  direction={table.sort.direction}
                  onSort={() => table.toggleSort(sort)}
                />
              ) : (
                <th key={label} scope="col">
                  {label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody aria-busy={loading}>
          {table.pageRows.map((item) => (
            // The whole row opens the item; the key stays the link that keyboards and screen readers reach.
            <tr
              key={item.key}
              className="row-link"
              onClick={(event) => {
                if (!(event.target as Element).closest('a, button, input')) navigate(props.rowHref(item));
              }}
            >
              {columns.map(({ label, cell }) => (
                <td key={label}>{cell(item)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {loading && (
        <div className="skeleton-list" aria-hidden="true">
          {SKELETON_ROWS.map((row) => (
            <span key={row} className="skeleton" />
          ))}
        </div>
      )}
      {list.items && !list.complete && !list.isError && (
        <p className="muted" role="status">
          Loading {props.entity}s: {list.items.length.toLocaleString('en-US')} of{' '}
          {list.totalCount.toLocaleString('en-US')}
        </p>
      )}
      {list.complete &&
        table.total === 0 &&
        (table.search ? (
          <p className="muted">No {props.entity}s match your search.</p>
        ) : (
          <div className="empty-state">
            <p>
              <strong>No {props.entity}s yet.</strong>
            </p>
            <p className="muted">{props.emptyHint}</p>
          </div>
        ))}
      <Pagination page={table.page} total={table.total} onPage={table.setPage} />
    </section>
  );
}
