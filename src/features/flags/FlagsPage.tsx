import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { ListPage } from '../../components/ListPage';
import type { Flag } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { ReasonButton } from '../../components/Tooltip';
import { toastError, toastSuccess } from '../../stores/toasts';
import { flagValues, useFlags, useUpdateFlag } from './api';
import { flagTypeLabel } from './labels';
import { flagHrefs } from './hrefs';

const COLUMNS = [
  ['key', 'Key'],
  ['name', 'Name'],
  ['type', 'Type'],
  ['enabled', 'Enabled'],
  ['createdAt', 'Created'],
] as const;

/** The list's Enabled column: a switch that turns the flag on or off, refused with its reason in read-only mode. */
function EnabledSwitch({ flag, namespaceKey }: { flag: Flag; namespaceKey: string }) {
  const update = useUpdateFlag(namespaceKey);
  const { reason } = useWritable();
  return (
    <ReasonButton
      role="switch"
      aria-checked={flag.enabled}
      aria-label={`Enabled ${flag.key}`}
      className={flag.enabled ? 'status status-switch status-on' : 'status status-switch'}
      reason={reason}
      disabled={update.isPending}
      onClick={() =>
        update
          .mutateAsync({
            flagKey: flag.key,
            values: { ...flagValues(flag), enabled: !flag.enabled },
            defaultVariantId: flag.defaultVariant?.id ?? null,
          })
          .then(() => toastSuccess('Successfully updated flag'))
          .catch((error) => toastError(errorMessage(error)))
      }
    >
      {flag.enabled ? 'Enabled' : 'Disabled'}
    </ReasonButton>
  );
}

export default function FlagsPage() {
  const namespaceKey = useNamespaceKey();
  const flags = useFlags(namespaceKey);
  return (
    <ListPage
      title="Flags"
      newLabel="New Flag"
      newHref={flagHrefs.new(namespaceKey)}
      list={flags}
      noun="flags"
      searchLabel="Search flags"
      columns={COLUMNS}
      rowHref={(flag) => flagHrefs.flag(namespaceKey, flag.key)}
      cells={(flag) => (
        <>
          <td>
            <span className="badge badge-type">{flagTypeLabel(flag.type)}</span>
          </td>
          <td>
            <EnabledSwitch flag={flag} namespaceKey={namespaceKey} />
          </td>
        </>
      )}
      emptyMessage="No flags yet."
      emptyHint="A flag turns a feature on or off, or chooses among its variants, for each entity. Create the first one with New Flag."
      noMatchMessage="No flags match your search."
    />
  );
}
