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
  createdAt: string;
}

const SEARCH_FIELDS = ['key', 'name'] as const;
const EMPTY: never[] = [];

interface ListPageProps<T extends ListItem, C extends keyof T & string> {
  /** The page heading, e.g. "Flags". */
  title: string;
  /** The label of the create button, e.g. "New Flag". */
  newLabel: string;
  newHref: string;
  /** The list, fetched page by page; searched and sorted as its pages arrive. */
  list: PagedList<T>;
  /** The plural noun of the rows, e.g. "flags". */
  noun: string;
  searchLabel: string;
  /** Sortable columns, in order: key and name first, created last. */
  columns: readonly (readonly [C, string])[];
  rowHref(item: T): string;
  /** The cells between the name and the created columns. */
  cells(item: T): ReactNode;
  emptyMessage: string;
  /** What the entity is for and how to make the first one, under the empty message. */
  emptyHint: string;
  noMatchMessage: string;
}

/**
 * A list page of keyed entities: heading and create button, search by key or name, sortable columns,
 * pagination, and while the rest of the list loads, how much of it is in.
 */
export function ListPage<T extends ListItem, C extends keyof T & string>(props: ListPageProps<T, C>) {
  const { list, columns } = props;
  const table = useTable<T, C>(list.items ?? EMPTY, SEARCH_FIELDS, columns[0][0]);
  const [, navigate] = useLocation();
  const { reason } = useWritable();
  return (
    <section>
      <header className="page-header">
        <h1>{props.title}</h1>
        {/* A button, as in Flipt's console, so that operators' automation finds it by role. */}
        <ReasonButton className="button button-primary" reason={reason} onClick={() => navigate(props.newHref)}>
          {props.newLabel}
        </ReasonButton>
      </header>
      {list.isError && <p role="alert">{list.error?.message}</p>}
      <input
        type="search"
        className="search"
        aria-label={props.searchLabel}
        placeholder="Search by key or name"
        value={table.search}
        onChange={(event) => table.setSearch(event.target.value)}
      />
      <table className="table">
        <thead>
          <tr>
            {columns.map(([column, label]) => (
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
          {table.pageRows.map((item) => (
            // The whole row opens the item; the key stays the link that keyboards and screen readers reach.
            <tr
              key={item.key}
              className="row-link"
              onClick={(event) => {
                if (!(event.target as Element).closest('a, button, input')) navigate(props.rowHref(item));
              }}
            >
              <td>
                <Link href={props.rowHref(item)}>{truncate(item.key)}</Link>
              </td>
              <td>{truncate(item.name)}</td>
              {props.cells(item)}
              <td>
                <Timestamp value={item.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.items && !list.complete && !list.isError && (
        <p className="muted" role="status">
          Loading {props.noun}: {list.items.length.toLocaleString('en-US')} of {list.totalCount.toLocaleString('en-US')}
        </p>
      )}
      {list.complete &&
        table.total === 0 &&
        (table.search ? (
          <p className="muted">{props.noMatchMessage}</p>
        ) : (
          <div className="empty-state">
            <p>
              <strong>{props.emptyMessage}</strong>
            </p>
            <p className="muted">{props.emptyHint}</p>
          </div>
        ))}
      <Pagination page={table.page} total={table.total} onPage={table.setPage} />
    </section>
  );
}
