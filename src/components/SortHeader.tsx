import type { SortDirection } from '../lib/table';

interface SortHeaderProps {
  label: string;
  active: boolean;
  direction: SortDirection;
  onSort(): void;
}

export function SortHeader({ label, active, direction, onSort }: SortHeaderProps) {
  return (
    <th scope="col" aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" className="sort-button" onClick={onSort}>
        {label}
        <span aria-hidden="true">{active ? (direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}
