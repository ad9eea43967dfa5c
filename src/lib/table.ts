import { useDeferredValue, useMemo, useState } from 'react';
import { PAGE_SIZE } from '../components/Pagination';
import { type SortDirection, useTableSortStore } from '../stores/tables';

export type { SortDirection };

/** Compares strings as `localeCompare` does, several times faster on large lists. */
const collator = new Intl.Collator();

/**
 * Search, sort and pagination over a list held in memory, fast at 100,000 items: the items are
 * sorted once per list and column (the other direction is the reverse), each item's searched text is
 * lower-cased once per list and lined up with the sorted items once per sort, and a keystroke scans
 * that array of strings, which keeps the sorted order. Only the current page is rendered.
 * `searchFields` must be a constant (defined outside the component). With `sortId`, the sort is kept
 * under that name (src/stores/tables.ts) and outlives the page.
 */
export function useTable<T, C extends keyof T & string>(
  items: T[],
  searchFields: readonly (keyof T)[],
  initialSort: C,
  sortId?: string,
) {
  const [search, setSearch] = useState('');
  const [ownSort, setOwnSort] = useState<{ column: C; direction: SortDirection }>({
    column: initialSort,
    direction: 'asc',
  });
  const keptSort = useTableSortStore((state) => (sortId ? state.sorts[sortId] : undefined));
  const sort = (keptSort as typeof ownSort | undefined) ?? ownSort;
  const setSort = (next: typeof ownSort) =>
    sortId ? useTableSortStore.getState().setSort(sortId, next) : setOwnSort(next);
  const [page, setPage] = useState(0);
  const deferredSearch = useDeferredValue(search);

  const ascending = useMemo(() => {
    const column = sort.column;
    return items.slice().sort((a, b) => {
      const left = a[column];
      const right = b[column];
      if (left === right) return 0;
      if (typeof left === 'string' && typeof right === 'string') return collator.compare(left, right);
      return left < right ? -1 : 1;
    });
  }, [items, sort.column]);
  const sorted = useMemo(
    () => (sort.direction === 'asc' ? ascending : ascending.slice().reverse()),
    [ascending, sort.direction],
  );
  const searchText = useMemo(
    () =>
      new Map(items.map((item) => [item, searchFields.map((field) => String(item[field]).toLowerCase()).join('\n')])),
    [items, searchFields],
  );
  // The searched text of each sorted item, at its index: a keystroke scans a plain array.
  const sortedText = useMemo(() => sorted.map((item) => searchText.get(item) ?? ''), [sorted, searchText]);
  const rows = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    if (!needle) return sorted;
    const found: T[] = [];
    for (let i = 0; i < sorted.length; i++) if (sortedText[i].includes(needle)) found.push(sorted[i]);
    return found;
  }, [sorted, sortedText, deferredSearch]);

  const lastPage = Math.max(0, Math.ceil(rows.length / PAGE_SIZE) - 1);
  const current = Math.min(page, lastPage);
  return {
    search,
    setSearch(value: string) {
      setSearch(value);
      setPage(0);
    },
    sort,
    toggleSort(column: C) {
      setPage(0);
      setSort({ column, direction: sort.column === column && sort.direction === 'asc' ? 'desc' : 'asc' });
    },
    page: current,
    setPage,
    total: rows.length,
    pageRows: rows.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE),
  };
}
