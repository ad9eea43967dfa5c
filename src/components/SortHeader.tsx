import type { SortDirection } from '../lib/table';
import { Icon } from './Icon';

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
        {active && <Icon name={direction === 'asc' ? 'up' : 'down'} size={14} />}
      </button>
    </th>
  );
}
