import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { CopyButton } from '../../components/CopyButton';
import { EntityPage } from '../../components/EntityPage';
import { Tabs } from '../../components/Tabs';
import { useNamespaces } from '../namespaces';
import { useConfigQuery } from '../../api/meta';
import { NotFound } from '../../components/NotFound';
import { FlagForm } from './FlagForm';
import { useCopyFlag, useDeleteFlag, useFlag } from './api';
import { flagHrefs } from './hrefs';
import { FLAG_TABS } from './tabs';

export default function FlagPage({ params }: { params: Record<string, string | undefined> }) {
  const namespaceKey = useNamespaceKey();
  const flagKey = params.flagKey!;
  const flag = useFlag(namespaceKey, flagKey);
  const copy = useCopyFlag(namespaceKey);
  const remove = useDeleteFlag(namespaceKey);
  const config = useConfigQuery();
  const namespaces = useNamespaces().data?.namespaces ?? [];

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

  return (
    <EntityPage
      entity="flag"
      data={data}
      keyAddon={<CopyButton text={data.key} label="Copy key" />}
      namespaceKey={namespaceKey}
      namespaces={namespaces}
      listHref={flagHrefs.list(namespaceKey)}
      onCopy={(to) => copy.mutateAsync({ flagKey: data.key, to: { namespaceKey: to.namespaceKey, flagKey: to.key } })}
      onDelete={() => remove.mutateAsync(data.key)}
    >
      <FlagForm key={data.key} namespaceKey={namespaceKey} flag={data} />
      <Tabs label="Flag" base={flagHrefs.flag(namespaceKey, data.key)} tabs={tabs} current={tab}>
        <Tab namespaceKey={namespaceKey} flag={data} />
      </Tabs>
    </EntityPage>
  );
}
