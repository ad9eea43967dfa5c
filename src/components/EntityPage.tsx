import { useState, type ReactNode } from 'react';
import type { Namespace } from '../../domain/flipt/types';
import { useLocation } from 'wouter';
import { errorMessage } from '../api/client';
import { useWritable } from '../api/writable';
import { toastError, toastSuccess } from '../stores/toasts';
import { ActionsMenu } from './ActionsMenu';
import { CopyDialog } from './CopyDialog';
import { ConfirmDialog } from './Dialog';
import { RelativeTime } from './RelativeTime';

/** Why Copy to Namespace is disabled when there is nowhere to copy to. */
export const ONE_NAMESPACE_REASON = 'Create another namespace to copy to';

interface EntityPageProps {
  /** 'flag' or 'segment'. */
  entity: string;
  data: { key: string; name: string; createdAt: string };
  /** Shown after the key, e.g. a copy button. */
  keyAddon?: ReactNode;
  namespaceKey: string;
  /** Every namespace: the copy dialog offers the others. */
  namespaces: Namespace[];
  /** Where to go once the entity is deleted. */
  listHref: string;
  onCopy(to: { namespaceKey: string; key?: string }): Promise<unknown>;
  onDelete(): Promise<unknown>;
  children: ReactNode;
}

/** The page of one flag or segment: name, key and age, the Copy to Namespace and Delete actions with their dialogs. */
export function EntityPage({
  entity,
  data,
  keyAddon,
  namespaceKey,
  namespaces,
  listHref,
  onCopy,
  onDelete,
  children,
}: EntityPageProps) {
  const [, navigate] = useLocation();
  const [dialog, setDialog] = useState<'copy' | 'delete' | null>(null);
  const writable = useWritable();
  return (
    <section>
      <header className="page-header">
        <div>
          <h1>{data.name}</h1>
          <p className="muted">
            <code>{data.key}</code>
            {keyAddon && <> {keyAddon}</>} · Created <RelativeTime value={data.createdAt} />
          </p>
        </div>
        <ActionsMenu
          actions={[
            {
              label: 'Copy to Namespace',
              onSelect: () => setDialog('copy'),
              disabled: writable.disabled || namespaces.length < 2,
              reason: writable.reason ?? (namespaces.length < 2 ? ONE_NAMESPACE_REASON : undefined),
            },
            {
              label: 'Delete',
              onSelect: () => setDialog('delete'),
              ...writable,
              danger: true,
            },
          ]}
        />
      </header>
      {children}
      <CopyDialog
        open={dialog === 'copy'}
        onClose={() => setDialog(null)}
        entity={entity}
        sourceKey={data.key}
        namespaces={namespaces.filter((namespace) => namespace.key !== namespaceKey)}
        onCopy={(to) =>
          onCopy(to)
            .then(() => {
              setDialog(null);
              toastSuccess(`Successfully copied ${entity}`);
            })
            .catch((error) => toastError(errorMessage(error)))
        }
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title={`Delete ${entity[0].toUpperCase()}${entity.slice(1)}`}
        onConfirm={() =>
          onDelete()
            .then(() => {
              toastSuccess(`Successfully deleted ${entity}`);
              navigate(listHref);
            })
            .catch((error) => toastError(errorMessage(error)))
        }
      >
        Are you sure you want to delete the {entity} <strong>{data.key}</strong>?
      </ConfirmDialog>
    </section>
  );
}
