import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { descriptionColumn, type ListColumn, ListPage } from '../../components/ListPage';
import type { Flag } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { ReasonButton } from '../../components/Tooltip';
import { toastError, toastSuccess } from '../../stores/toasts';
import { flagValues, useFlags, useUpdateFlag } from './api';
import { evaluationLabel, flagTypeLabel } from './labels';
import { flagHrefs } from './hrefs';

/**
 * The list's Evaluation column: a switch that turns a variant flag on or off, or sets a boolean flag's
 * default value (what it returns when no rollout matches, shown True or False as Flipt 1.56 shows it);
 * refused with its reason in read-only mode.
 */
function EvaluationSwitch({ flag, namespaceKey }: { flag: Flag; namespaceKey: string }) {
  const update = useUpdateFlag(namespaceKey);
  const { reason } = useWritable();
  return (
    <ReasonButton
      role="switch"
      aria-checked={flag.enabled}
      aria-label={`${flag.type === 'BOOLEAN_FLAG_TYPE' ? 'Default value' : 'Enabled'} ${flag.key}`}
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
      {evaluationLabel(flag)}
    </ReasonButton>
  );
}

// Flipt 1.61's flag table: Key, Name, Description, Evaluation, Type, Created, Updated.
const columns = (namespaceKey: string): ListColumn<Flag, 'type'>[] => [
  descriptionColumn(),
  { label: 'Evaluation', cell: (flag) => <EvaluationSwitch flag={flag} namespaceKey={namespaceKey} /> },
  {
    label: 'Type',
    sort: 'type',
    cell: (flag) => <span className="badge badge-type">{flagTypeLabel(flag.type)}</span>,
  },
];

export default function FlagsPage() {
  const namespaceKey = useNamespaceKey();
  const flags = useFlags(namespaceKey);
  return (
    <ListPage
      entity="flag"
      newHref={flagHrefs.new(namespaceKey)}
      list={flags}
      columns={columns(namespaceKey)}
      rowHref={(flag) => flagHrefs.flag(namespaceKey, flag.key)}
      emptyHint="A flag turns a feature on or off, or chooses among its variants, for each entity. Create the first one with New Flag."
    />
  );
}
