import type { HistoryEntry } from '../../../domain/flipt/history';
import { errorMessage } from '../../api/client';
import { DiffTable } from '../../components/DiffTable';
import { Dialog, DialogActions } from '../../components/Dialog';
import { useSubmitting } from '../../lib/form';
import { toastError, toastSuccess } from '../../stores/toasts';
import { entityDiff } from './diff';
import { useRevert, useRevertPreview } from './api';

interface RevertDialogProps {
  namespaceKey: string;
  entry: HistoryEntry;
  onClose(): void;
}

/** Shows what reverting the entry would change now, or why it cannot, before the operator confirms. */
export function RevertDialog({ namespaceKey, entry, onClose }: RevertDialogProps) {
  const preview = useRevertPreview(namespaceKey, entry.id);
  const revert = useRevert(namespaceKey);
  const [submitting, track] = useSubmitting();
  const refusal = preview.data?.refusal;
  const confirm = () =>
    track(() =>
      revert
        .mutateAsync(entry.id)
        .then(() => {
          toastSuccess('Successfully reverted change');
          onClose();
        })
        .catch((error) => toastError(errorMessage(error))),
    );
  return (
    <Dialog open onClose={onClose} title="Revert Change">
      <p>
        Restores {entry.entityType} <code>{entry.entityKey}</code> to its state before this change, as a new change.
      </p>
      {preview.isPending && <p className="muted">Loading…</p>}
      {preview.isError && <p role="alert">{preview.error.message}</p>}
      {refusal && <p role="alert">This change cannot be reverted: {refusal}.</p>}
      {preview.isSuccess && !refusal && (
        <DiffTable
          caption="What the revert changes"
          rows={entityDiff(entry.entityType, preview.data.current, preview.data.target)}
        />
      )}
      <DialogActions
        onCancel={onClose}
        label="Revert"
        disabled={!preview.isSuccess || !!refusal || submitting}
        onConfirm={confirm}
      />
    </Dialog>
  );
}
