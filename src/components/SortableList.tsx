import { useState, type ReactNode } from 'react';
import { Icon } from './Icon';
import { ReasonButton } from './Tooltip';

interface SortableListProps<T> {
  items: T[];
  itemKey(item: T): string;
  /** How the item is named to assistive technology ("rule 2"). */
  itemLabel(item: T, index: number): string;
  onReorder(next: T[]): void;
  disabled?: boolean;
  /** Why the list cannot be reordered: the tooltip of its move buttons. */
  disabledReason?: string;
  children(item: T, index: number): ReactNode;
}

/** Moves the item at `from` to `to`, returning a new array. */
export function move<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * An ordered list that can be reordered by dragging an item onto another, or from the keyboard with
 * each item's Move up / Move down buttons.
 */
export function SortableList<T>({
  items,
  itemKey,
  itemLabel,
  onReorder,
  disabled,
  disabledReason,
  children,
}: SortableListProps<T>) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const reorder = (from: number, to: number) => {
    if (from !== to && to >= 0 && to < items.length) onReorder(move(items, from, to));
  };
  return (
    <ol className="sortable">
      {items.map((item, index) => (
        <li
          key={itemKey(item)}
          className={`sortable-item${over === index && dragging !== index ? ' drop-target' : ''}`}
          draggable={!disabled}
          onDragStart={(event) => {
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', String(index));
            setDragging(index);
          }}
          onDragOver={(event) => {
            if (dragging === null) return;
            event.preventDefault();
            setOver(index);
          }}
          onDragLeave={() => setOver((current) => (current === index ? null : current))}
          onDrop={(event) => {
            event.preventDefault();
            if (dragging !== null) reorder(dragging, index);
            setDragging(null);
            setOver(null);
          }}
          onDragEnd={() => {
            setDragging(null);
            setOver(null);
          }}
        >
          <span className="drag-handle" aria-hidden="true" title={disabled ? undefined : 'Drag to reorder'}>
            <Icon name="grip" />
          </span>
          <div className="sortable-body">{children(item, index)}</div>
          <span className="sortable-moves">
            <ReasonButton
              className="icon-button"
              aria-label={`Move ${itemLabel(item, index)} up`}
              reason={disabled ? disabledReason : undefined}
              disabled={index === 0}
              onClick={() => reorder(index, index - 1)}
            >
              <Icon name="up" size={16} />
            </ReasonButton>
            <ReasonButton
              className="icon-button"
              aria-label={`Move ${itemLabel(item, index)} down`}
              reason={disabled ? disabledReason : undefined}
              disabled={index === items.length - 1}
              onClick={() => reorder(index, index + 1)}
            >
              <Icon name="down" size={16} />
            </ReasonButton>
          </span>
        </li>
      ))}
    </ol>
  );
}
