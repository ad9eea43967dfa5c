import { Dialog as AriakitDialog, DialogDismiss, DialogHeading } from '@ariakit/react';
import type { ReactNode } from 'react';
import { toastOutcome } from '../stores/toasts';

interface DialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  /** A slide-over panel on the right instead of a centred dialog. */
  side?: boolean;
}

export function Dialog({ open, onClose, title, children, side }: DialogProps) {
  return (
    <AriakitDialog
      open={open}
      onClose={onClose}
      className={side ? 'dialog slide-over' : 'dialog'}
      backdrop={<div className="backdrop" />}
      unmountOnHide
    >
      <div className="dialog-header">
        <DialogHeading className="dialog-title">{title}</DialogHeading>
        <DialogDismiss className="icon-button" aria-label="Close">
          ×
        </DialogDismiss>
      </div>
      {children}
    </AriakitDialog>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  /** The question, ending with the entity's key or property. */
  children: ReactNode;
  confirmLabel?: string;
  onConfirm(): Promise<unknown>;
}

/** A delete confirmation: always closes once the action settles; the caller reports failures. */
export function ConfirmDialog({
  open,
  onClose,
  title,
  children,
  confirmLabel = 'Delete',
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <p>{children}</p>
      <p>This action cannot be undone.</p>
      <DialogActions
        onCancel={onClose}
        label={confirmLabel}
        danger
        onConfirm={() => {
          onConfirm().finally(onClose);
        }}
      />
    </Dialog>
  );
}

/** A dialog's Cancel button and the button that does what it asks. */
export function DialogActions({
  onCancel,
  label,
  danger,
  disabled,
  onConfirm,
}: {
  onCancel(): void;
  label: string;
  /** A destructive action: a red button. */
  danger?: boolean;
  disabled?: boolean;
  onConfirm(): void;
}) {
  return (
    <div className="form-actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button
        type="button"
        className={danger ? 'button button-danger' : 'button button-primary'}
        disabled={disabled}
        onClick={onConfirm}
      >
        {label}
      </button>
    </div>
  );
}

interface DeleteDialogBase<T> {
  /** The item to delete; the dialog is open while there is one. */
  item: T | null | undefined;
  onClose(): void;
  confirmLabel?: string;
  onDelete(item: T): Promise<unknown>;
}

/** A question of its own: its title, the question given the item, and the toast once it is done. */
interface OwnQuestion<T> {
  title: string;
  children(item: T): ReactNode;
  success: string;
}

/**
 * The usual question, from what the item is (`noun`, e.g. "action") and its name: "Delete Action",
 * "Are you sure you want to delete the action <name>?", "Successfully deleted action".
 */
interface UsualQuestion<T> {
  noun: string;
  nameOf(item: T): string;
}

type DeleteDialogProps<T> = DeleteDialogBase<T> & (OwnQuestion<T> | UsualQuestion<T>);

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The confirmation of a row's deletion, with its outcome as a toast (a failure is toasted with its error). */
export function DeleteDialog<T>(props: DeleteDialogProps<T>) {
  const { item, onClose, confirmLabel, onDelete } = props;
  const usual = 'noun' in props;
  return (
    <ConfirmDialog
      open={item != null}
      onClose={onClose}
      title={usual ? `Delete ${capitalised(props.noun)}` : props.title}
      confirmLabel={confirmLabel}
      onConfirm={() => toastOutcome(onDelete(item!), usual ? `Successfully deleted ${props.noun}` : props.success)}
    >
      {item != null &&
        (usual ? (
          <>
            Are you sure you want to delete the {props.noun} <strong>{props.nameOf(item)}</strong>?
          </>
        ) : (
          props.children(item)
        ))}
    </ConfirmDialog>
  );
}
