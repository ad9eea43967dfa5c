import '../../app/shared-chunk';
import { Suspense, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { errorMessage } from '../../api/client';
import { useNamespaceKey } from '../../app/namespace';
import { namespacePath } from '../../app/routes';
import { ActionsMenu } from '../../components/ActionsMenu';
import { CopyButton } from '../../components/CopyButton';
import { CopyDialog } from '../../components/CopyDialog';
import { ConfirmDialog } from '../../components/Dialog';
import { RelativeTime } from '../../components/Timestamp';
import { toastError, toastSuccess } from '../../stores/toasts';
import { useNamespaces } from '../namespaces/queries';
import { READ_ONLY_TITLE, useConfigQuery, useReadOnly } from '../meta/queries';
import { NotFound } from '../../app/NotFound';
import { FlagForm } from './FlagForm';
import { useFlag, useFlagMutations } from './queries';
import { FLAG_TABS } from './tabs';

export default function FlagPage({ params }: { params: Record<string, string | undefined> }) {
  const namespaceKey = useNamespaceKey();
  const flagKey = params.flagKey!;
  const [, navigate] = useLocation();
  const flag = useFlag(namespaceKey, flagKey);
  const mutations = useFlagMutations(namespaceKey);
  const readOnly = useReadOnly();
  const config = useConfigQuery();
  const namespaceCount = useNamespaces().data?.namespaces.length ?? 0;
  const [dialog, setDialog] = useState<'copy' | 'delete' | null>(null);

  if (flag.isPending || config.isPending) return <p className="muted">Loading…</p>;
  if (flag.isError) return <p role="alert">{flag.error.message}</p>;
  const data = flag.data;
  // The Analytics tab exists only when the server reports analytics as enabled.
  const tabs = (FLAG_TABS[data.type] ?? FLAG_TABS.VARIANT_FLAG_TYPE).filter(
    (candidate) => candidate.path !== 'analytics' || config.data?.analyticsEnabled,
  );
  const tab = tabs.find((candidate) => candidate.path === (params.tab ?? ''));
  if (!tab) return <NotFound />;
  const Tab = tab.component;
  const base = namespacePath(namespaceKey, `/flags/${encodeURIComponent(data.key)}`);

  return (
    <section>
      <header className="page-header">
        <div>
          <h1>{data.name}</h1>
          <p className="muted">
            <code>{data.key}</code> <CopyButton text={data.key} label="Copy key" /> · Created <RelativeTime value={data.createdAt} />
          </p>
        </div>
        <ActionsMenu
          actions={[
            {
              label: 'Copy to Namespace',
              onSelect: () => setDialog('copy'),
              disabled: readOnly || namespaceCount < 2,
              title: readOnly ? READ_ONLY_TITLE : undefined,
            },
            { label: 'Delete', onSelect: () => setDialog('delete'), disabled: readOnly, title: readOnly ? READ_ONLY_TITLE : undefined, danger: true },
          ]}
        />
      </header>
      <FlagForm key={`${data.updatedAt}/${data.defaultVariant?.id}/${data.variants.length}`} namespaceKey={namespaceKey} flag={data} />
      <nav className="tabs" aria-label="Flag">
        {tabs.map((candidate) => (
          <Link
            key={candidate.path}
            href={candidate.path ? `${base}/${candidate.path}` : base}
            className="tab"
            aria-current={candidate === tab ? 'page' : undefined}
          >
            {candidate.label}
          </Link>
        ))}
      </nav>
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <Tab namespaceKey={namespaceKey} flag={data} />
      </Suspense>
      <CopyDialog
        open={dialog === 'copy'}
        onClose={() => setDialog(null)}
        entity="flag"
        sourceKey={data.key}
        namespaceKey={namespaceKey}
        onCopy={(to) =>
          mutations.copy
            .mutateAsync({ flagKey: data.key, to: { namespaceKey: to.namespaceKey, flagKey: to.key } })
            .then(() => {
              setDialog(null);
              toastSuccess('Successfully copied flag');
            })
            .catch((error) => toastError(errorMessage(error)))
        }
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title="Delete Flag"
        onConfirm={() =>
          mutations.remove
            .mutateAsync(data.key)
            .then(() => navigate(namespacePath(namespaceKey, '/flags')))
            .catch((error) => toastError(errorMessage(error)))
        }
      >
        Are you sure you want to delete the flag <strong>{data.key}</strong>?
      </ConfirmDialog>
    </section>
  );
}
