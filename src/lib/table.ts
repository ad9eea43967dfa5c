import { useDeferredValue, useMemo, useState } from 'react';
import { PAGE_SIZE } from '../components/Pagination';

export type SortDirection = 'asc' | 'desc';

/**
 * Search, sort and pagination over a list held in memory: filtering and sorting touch every item
 * once per change, and only the current page is rendered, so 10,000 items stay fast.
 */
/** `searchFields` must be a constant (defined outside the component). */
export function useTable<T, C extends keyof T & string>(
  items: T[],
  searchFields: readonly (keyof T)[],
  initialSort: C,
) {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ column: C; direction: SortDirection }>({ column: initialSort, direction: 'asc' });
  const [page, setPage] = useState(0);
  const deferredSearch = useDeferredValue(search);

  const rows = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    const filtered = needle
      ? items.filter((item) => searchFields.some((field) => String(item[field]).toLowerCase().includes(needle)))
      : items.slice();
    const factor = sort.direction === 'asc' ? 1 : -1;
    return filtered.sort((a, b) => {
      const left = a[sort.column];
      const right = b[sort.column];
      if (left === right) return 0;
      if (typeof left === 'string' && typeof right === 'string') return left.localeCompare(right) * factor;
      return (left < right ? -1 : 1) * factor;
    });
  }, [items, searchFields, deferredSearch, sort]);

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
      setSort((previous) => ({
        column,
        direction: previous.column === column && previous.direction === 'asc' ? 'desc' : 'asc',
      }));
    },
    page: current,
    setPage,
    total: rows.length,
    pageRows: rows.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE),
  };
}
