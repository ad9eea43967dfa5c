import { useState, type ReactNode } from 'react';

export const COLLAPSED_ITEMS = 5;

/** Shows the first 5 items until expanded; '...' shows fewer again. */
export function ValueList<T>({ items, render }: { items: T[]; render(item: T, index: number): ReactNode }) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? items : items.slice(0, COLLAPSED_ITEMS);
  const hidden = items.length - shown.length;
  return (
    <span className="value-list">
      {shown.map(render)}
      {hidden > 0 && (
        <button type="button" className="link-button" onClick={() => setExpanded(true)}>
          +{hidden} more
        </button>
      )}
      {expanded && items.length > COLLAPSED_ITEMS && (
        <button type="button" className="link-button" aria-label="Show fewer" onClick={() => setExpanded(false)}>
          ...
        </button>
      )}
    </span>
  );
}
