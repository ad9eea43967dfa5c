import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { ListPage } from '../../components/ListPage';
import type { Flag } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { READ_ONLY_TITLE, useReadOnly } from '../../api/meta';
import { ReasonButton } from '../../components/Tooltip';
import { toastError, toastSuccess } from '../../stores/toasts';
import { flagValues, useFlagMutations, useFlags } from './queries';
import { flagTypeLabel } from './labels';

const COLUMNS = [
  ['key', 'Key'],
  ['name', 'Name'],
  ['type', 'Type'],
  ['enabled', 'Enabled'],
  ['createdAt', 'Created'],
] as const;

/** The list's Enabled column: a switch that turns the flag on or off, refused with its reason in read-only mode. */
function EnabledSwitch({ flag, namespaceKey, readOnly }: { flag: Flag; namespaceKey: string; readOnly: boolean }) {
  const { update } = useFlagMutations(namespaceKey);
  const pending = update.isPending && update.variables?.flagKey === flag.key;
  return (
    <ReasonButton
      role="switch"
      aria-checked={flag.enabled}
      aria-label={`Enabled ${flag.key}`}
      className={flag.enabled ? 'status status-switch status-on' : 'status status-switch'}
      reason={readOnly ? READ_ONLY_TITLE : undefined}
      disabled={pending}
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
  const readOnly = useReadOnly();
  const flags = useFlags(namespaceKey);
  return (
    <ListPage
      title="Flags"
      newLabel="New Flag"
      newHref={namespacePath(namespaceKey, '/flags/new')}
      readOnly={readOnly}
      readOnlyTitle={READ_ONLY_TITLE}
      list={flags}
      noun="flags"
      searchLabel="Search flags"
      columns={COLUMNS}
      rowHref={(flag) => namespacePath(namespaceKey, `/flags/${encodeURIComponent(flag.key)}`)}
      cells={(flag) => (
        <>
          <td>
            <span className="badge badge-type">{flagTypeLabel(flag.type)}</span>
          </td>
          <td>
            <EnabledSwitch flag={flag} namespaceKey={namespaceKey} readOnly={readOnly} />
          </td>
        </>
      )}
      emptyMessage="No flags yet."
      emptyHint="A flag turns a feature on or off, or chooses among its variants, for each entity. Create the first one with New Flag."
      noMatchMessage="No flags match your search."
    />
  );
}
