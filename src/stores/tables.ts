/**
 * The sort of each list page (flags, segments), kept while the console is open: leaving the list and
 * coming back shows it sorted as it was. As Flipt's console (1.49 and later) it lives in memory only, so
 * a reload starts from the default sort again.
 */
import { create } from 'zustand';

export type SortDirection = 'asc' | 'desc';

export interface TableSort {
  column: string;
  direction: SortDirection;
}

interface TableSortState {
  sorts: Partial<Record<string, TableSort>>;
  setSort(table: string, sort: TableSort): void;
}

export const useTableSortStore = create<TableSortState>()((set) => ({
  sorts: {},
  setSort: (table, sort) => set((state) => ({ sorts: { ...state.sorts, [table]: sort } })),
}));
