import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { evaluationLabel } from '../../../src/features/flags/labels';
import { useTable } from '../../../src/lib/table';
import { useTableSortStore } from '../../../src/stores/tables';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Row {
  key: string;
  name: string;
  updatedAt: string;
}

const ROWS: Row[] = [
  { key: 'b', name: 'Bravo', updatedAt: '2024-01-03T00:00:00Z' },
  { key: 'a', name: 'Alpha', updatedAt: '2024-01-01T00:00:00Z' },
  { key: 'c', name: 'Charlie', updatedAt: '2024-01-02T00:00:00Z' },
];
const SEARCH: (keyof Row)[] = ['key', 'name'];

type Table = ReturnType<typeof useTable<Row, 'key' | 'updatedAt'>>;

function TableHost({ sortId, onRender }: { sortId?: string; onRender(table: Table): void }) {
  onRender(useTable<Row, 'key' | 'updatedAt'>(ROWS, SEARCH, 'key', sortId));
  return null;
}

/** Mounts a table, returns its latest state and a way to unmount it (as leaving the page does). */
function mount(sortId?: string) {
  let table!: Table;
  const root = createRoot(document.createElement('div'));
  act(() => root.render(<TableHost sortId={sortId} onRender={(t) => (table = t)} />));
  return { table: () => table, unmount: () => act(() => root.unmount()) };
}

const keys = (table: Table) => table.pageRows.map((row) => row.key);

beforeEach(() => useTableSortStore.setState({ sorts: {} }));

describe('list sort', () => {
  it('sorts by the first column, then by the heading chosen, the other way on a second press', () => {
    const { table, unmount } = mount();
    expect(keys(table())).toEqual(['a', 'b', 'c']);
    act(() => table().toggleSort('updatedAt'));
    expect(keys(table())).toEqual(['a', 'c', 'b']);
    act(() => table().toggleSort('updatedAt'));
    expect(table().sort).toEqual({ column: 'updatedAt', direction: 'desc' });
    expect(keys(table())).toEqual(['b', 'c', 'a']);
    unmount();
  });

  it('keeps a named list sort when the page is left and shown again, as Flipt keeps it', () => {
    const first = mount('flags');
    act(() => first.table().toggleSort('updatedAt'));
    act(() => first.table().toggleSort('updatedAt'));
    first.unmount();
    const again = mount('flags');
    expect(again.table().sort).toEqual({ column: 'updatedAt', direction: 'desc' });
    expect(keys(again.table())).toEqual(['b', 'c', 'a']);
    again.unmount();
    // Another list's sort, and a list without a name, start from the default.
    expect(mount('segments').table().sort).toEqual({ column: 'key', direction: 'asc' });
    expect(mount().table().sort).toEqual({ column: 'key', direction: 'asc' });
  });
});

describe('flag list evaluation column', () => {
  it("shows a boolean flag's default value, what it returns when no rollout matches, and a variant flag's state", () => {
    expect(evaluationLabel({ type: 'BOOLEAN_FLAG_TYPE', enabled: true })).toBe('True');
    expect(evaluationLabel({ type: 'BOOLEAN_FLAG_TYPE', enabled: false })).toBe('False');
    expect(evaluationLabel({ type: 'VARIANT_FLAG_TYPE', enabled: true })).toBe('Enabled');
    expect(evaluationLabel({ type: 'VARIANT_FLAG_TYPE', enabled: false })).toBe('Disabled');
  });
});
