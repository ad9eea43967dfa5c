import type { ReactNode } from 'react';
import { ReasonButton } from './Tooltip';

interface EditDeleteButtonsProps {
  /** Names the item to assistive technology: "Edit {name}", "Delete {name}". */
  name: string;
  onEdit(): void;
  onDelete(): void;
  disabled?: boolean;
  reason?: string;
  /** Disables Delete only, with its own tooltip. */
  deleteDisabled?: boolean;
  deleteReason?: string;
}

/** The Edit and Delete link buttons of a row. */
export function EditDeleteButtons({
  name,
  onEdit,
  onDelete,
  disabled,
  reason,
  deleteDisabled,
  deleteReason,
}: EditDeleteButtonsProps) {
  return (
    <>
      <ReasonButton className="link-button" disabled={disabled} reason={disabled ? reason : undefined} onClick={onEdit}>
        Edit<span className="visually-hidden"> {name}</span>
      </ReasonButton>
      <ReasonButton
        className="link-button danger"
        disabled={disabled || deleteDisabled}
        reason={disabled || deleteDisabled ? (deleteReason ?? reason) : undefined}
        onClick={onDelete}
      >
        Delete<span className="visually-hidden"> {name}</span>
      </ReasonButton>
    </>
  );
}

/**
 * A table head: the column labels, then an actions column named for assistive technology only (none
 * with `actionsLabel={false}`).
 */
export function TableHead({
  columns,
  actionsLabel = 'Actions',
}: {
  columns: readonly string[];
  actionsLabel?: string | false;
}) {
  return (
    <thead>
      <tr>
        {columns.map((label) => (
          <th key={label} scope="col">
            {label}
          </th>
        ))}
        {actionsLabel !== false && (
          <th scope="col">
            <span className="visually-hidden">{actionsLabel}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

/** A table that scrolls sideways on narrow screens: its head (see `TableHead`) and its rows. */
export function DataTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="table">
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** What a list shows while it has nothing: a bold line, then what to do about it. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty-state">
      <p>
        <strong>{title}</strong>
      </p>
      <p className="muted">{children}</p>
    </div>
  );
}
