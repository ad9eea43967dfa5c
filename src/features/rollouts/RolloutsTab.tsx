import '../../app/shared-chunk';
import { ReasonButton } from '../../components/Tooltip';
import { useState } from 'react';
import type { Rollout } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { ItemDialogs } from '../../components/ItemDialogs';
import { EditDeleteButtons } from '../../components/RowActions';
import { SEGMENT_OPERATOR_LABELS } from '../../components/SegmentsPicker';
import { SortableList } from '../../components/SortableList';
import { segmentsOf } from '../../lib/segments';
import { toastError, toastSuccess } from '../../stores/toasts';
import { flagValues, useFlagMutations } from '../flags';
import type { FlagTabProps } from '../flags';
import { READ_ONLY_TITLE, useReadOnly } from '../../api/meta';
import { useSegments } from '../segments';
import { useRolloutMutations, useRollouts } from './queries';
import { RolloutForm } from './RolloutForm';

function describeRollout(rollout: Rollout): string {
  if (rollout.threshold) return `${rollout.threshold.percentage}% of entities`;
  const segment = rollout.segment!;
  return segmentsOf(segment).join(` ${SEGMENT_OPERATOR_LABELS[segment.segmentOperator]} `);
}

const rolloutValue = (rollout: Rollout) => (rollout.threshold ?? rollout.segment)!.value;

export default function RolloutsTab({ namespaceKey, flag }: FlagTabProps) {
  const readOnly = useReadOnly();
  const rollouts = useRollouts(namespaceKey, flag.key);
  const segments = useSegments(namespaceKey);
  const mutations = useRolloutMutations(namespaceKey, flag.key);
  const flagMutations = useFlagMutations(namespaceKey);
  const [editing, setEditing] = useState<Rollout | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Rollout | null>(null);
  const [defaultValue, setDefaultValue] = useState(flag.enabled);
  const disabledTitle = readOnly ? READ_ONLY_TITLE : undefined;

  if (rollouts.isPending) return <p className="muted">Loading…</p>;
  if (rollouts.isError) return <p role="alert">{rollouts.error.message}</p>;
  const list = rollouts.data.rules;
  const report = (message: string) => (promise: Promise<unknown>) =>
    promise.then(() => toastSuccess(message)).catch((error) => toastError(errorMessage(error)));

  return (
    <section aria-label="Rollouts">
      <header className="section-header">
        <div>
          <h2>Rollouts</h2>
          <p className="muted">Evaluated in order, top to bottom: the first rollout that matches decides the value.</p>
        </div>
        <ReasonButton className="button button-primary" reason={disabledTitle} onClick={() => setEditing('new')}>
          New Rollout
        </ReasonButton>
      </header>
      {list.length > 0 && (
        <SortableList
          items={list}
          itemKey={(rollout) => rollout.id}
          itemLabel={(_rollout, index) => `rollout ${index + 1}`}
          disabled={readOnly}
          disabledReason={disabledTitle}
          onReorder={(next) => report('Successfully reordered rollouts')(mutations.order.mutateAsync(next))}
        >
          {(rollout, index) => (
            <article className="rule" aria-label={`Rollout ${index + 1}`}>
              <header className="rule-header">
                <strong>{rollout.threshold ? 'Threshold' : 'Segment'}</strong>
                <span>{describeRollout(rollout)}</span>
                <span className="badge">{String(rolloutValue(rollout))}</span>
                <span className="row-actions">
                  <EditDeleteButtons
                    name={`rollout ${index + 1}`}
                    disabled={readOnly}
                    reason={disabledTitle}
                    onEdit={() => setEditing(rollout)}
                    onDelete={() => setDeleting(rollout)}
                  />
                </span>
              </header>
              {rollout.description && <p className="muted">{rollout.description}</p>}
            </article>
          )}
        </SortableList>
      )}
      <form
        className="rule default-rule"
        aria-label="Default Rollout"
        onSubmit={(event) => {
          event.preventDefault();
          report('Successfully updated default rollout')(
            flagMutations.update.mutateAsync({
              flagKey: flag.key,
              values: { ...flagValues(flag), enabled: defaultValue },
              defaultVariantId: null,
            }),
          );
        }}
      >
        <div>
          <h3>Default Rollout</h3>
          <p className="muted">The value when no rollout matches.</p>
        </div>
        <label className="choice">
          Value
          <select
            value={String(defaultValue)}
            disabled={readOnly}
            onChange={(event) => setDefaultValue(event.target.value === 'true')}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </label>
        <ReasonButton type="submit" className="button" disabled={defaultValue === flag.enabled} reason={disabledTitle}>
          Update
        </ReasonButton>
      </form>
      <ItemDialogs
        entity="Rollout"
        editing={editing}
        onCloseEdit={() => setEditing(null)}
        side
        form={(rollout) => (
          <RolloutForm
            rollout={rollout}
            segments={segments.data?.segments ?? []}
            onSave={(values) =>
              report(rollout ? 'Successfully updated rollout' : 'Successfully created rollout')(
                (rollout
                  ? mutations.update.mutateAsync({ id: rollout.id, values })
                  : mutations.create.mutateAsync({ values, rank: list.length + 1 })
                ).then(() => setEditing(null)),
              )
            }
          />
        )}
        deleting={deleting}
        onCloseDelete={() => setDeleting(null)}
        deleteNoun="rollout for"
        deleteName={deleting ? describeRollout(deleting) : ''}
        onDelete={(rollout) => mutations.remove.mutateAsync(rollout.id)}
      />
    </section>
  );
}
