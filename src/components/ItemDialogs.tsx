import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { toastError, toastSuccess } from '../stores/toasts';
import { ConfirmDialog, Dialog } from './Dialog';

interface ItemDialogsProps<T> {
  /** e.g. "Variant": titles "New Variant", "Edit Variant" and "Delete Variant". */
  entity: string;
  /** The item being edited, 'new' while creating one, null when the edit dialog is closed. */
  editing: T | 'new' | null;
  onCloseEdit(): void;
  /** The edit dialog slides over from the side. */
  side?: boolean;
  /** The form, for the item to edit or (undefined) a new one. */
  form(item: T | undefined): ReactNode;
  deleting: T | null;
  onCloseDelete(): void;
  /** The confirmation: "Are you sure you want to delete the {deleteNoun} <strong>{deleteName}</strong>?" */
  deleteNoun: string;
  deleteName: string | undefined;
  /** Deletes the item; success ("Successfully deleted variant") and failure show as a toast. */
  onDelete(item: T): Promise<unknown>;
}

/** The create/edit dialog and the delete confirmation of a list of items (variants, constraints, ...). */
export function ItemDialogs<T>(props: ItemDialogsProps<T>) {
  const { entity, editing, deleting } = props;
  return (
    <>
      <Dialog
        open={editing !== null}
        onClose={props.onCloseEdit}
        title={editing === 'new' ? `New ${entity}` : `Edit ${entity}`}
        side={props.side}
      >
        {editing !== null && props.form(editing === 'new' ? undefined : editing)}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onClose={props.onCloseDelete}
        title={`Delete ${entity}`}
        onConfirm={() =>
          props
            .onDelete(deleting!)
            .then(() => toastSuccess(`Successfully deleted ${entity.toLowerCase()}`))
            .catch((error) => toastError(errorMessage(error)))
        }
      >
        Are you sure you want to delete the {props.deleteNoun} <strong>{props.deleteName}</strong>?
      </ConfirmDialog>
    </>
  );
}
