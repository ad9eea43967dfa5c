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
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            onConfirm().finally(onClose);
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

interface DeleteDialogProps<T> {
  /** The item to delete; the dialog is open while there is one. */
  item: T | null | undefined;
  onClose(): void;
  title: string;
  /** The question, given the item. */
  children(item: T): ReactNode;
  confirmLabel?: string;
  onDelete(item: T): Promise<unknown>;
  /** The toast once it is done; a failure is toasted with its error. */
  success: string;
}

/** The confirmation of a row's deletion, with its outcome as a toast. */
export function DeleteDialog<T>({
  item,
  onClose,
  title,
  children,
  confirmLabel,
  onDelete,
  success,
}: DeleteDialogProps<T>) {
  return (
    <ConfirmDialog
      open={item != null}
      onClose={onClose}
      title={title}
      confirmLabel={confirmLabel}
      onConfirm={() => toastOutcome(onDelete(item!), success)}
    >
      {item != null && children(item)}
    </ConfirmDialog>
  );
}
