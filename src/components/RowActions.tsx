interface EditDeleteButtonsProps {
  /** Names the item to assistive technology: "Edit {name}", "Delete {name}". */
  name: string;
  onEdit(): void;
  onDelete(): void;
  disabled?: boolean;
  title?: string;
  /** Disables Delete only, with its own tooltip. */
  deleteDisabled?: boolean;
  deleteTitle?: string;
}

/** The Edit and Delete link buttons of a row. */
export function EditDeleteButtons({
  name,
  onEdit,
  onDelete,
  disabled,
  title,
  deleteDisabled,
  deleteTitle,
}: EditDeleteButtonsProps) {
  return (
    <>
      <button type="button" className="link-button" disabled={disabled} title={title} onClick={onEdit}>
        Edit<span className="visually-hidden"> {name}</span>
      </button>
      <button
        type="button"
        className="link-button danger"
        disabled={disabled || deleteDisabled}
        title={deleteTitle ?? title}
        onClick={onDelete}
      >
        Delete<span className="visually-hidden"> {name}</span>
      </button>
    </>
  );
}

/** A table head: the column labels, then an actions column named for assistive technology only. */
export function TableHead({
  columns,
  actionsLabel = 'Actions',
}: {
  columns: readonly string[];
  actionsLabel?: string;
}) {
  return (
    <thead>
      <tr>
        {columns.map((label) => (
          <th key={label} scope="col">
            {label}
          </th>
        ))}
        <th scope="col">
          <span className="visually-hidden">{actionsLabel}</span>
        </th>
      </tr>
    </thead>
  );
}
