import '../../../app/shared-chunk';
import { useState } from 'react';
import type { Rollout } from '../../../../domain/flipt/types';
import { errorMessage } from '../../../api/client';
import { useWritable } from '../../../api/writable';
import { ItemDialogs } from '../../../components/ItemDialogs';
import { EditDeleteButtons } from '../../../components/RowActions';
import { SEGMENT_OPERATOR_LABELS } from '../../../components/SegmentsPicker';
import { SortableList } from '../../../components/SortableList';
import { ReasonButton } from '../../../components/Tooltip';
import { segmentsOf } from '../../../lib/segments';
import { toastError, toastSuccess } from '../../../stores/toasts';
import { useSegments } from '../../segments';
import { flagValues, useUpdateFlag } from '../api';
import { SegmentNames } from '../SegmentNames';
import type { FlagTabProps } from '../tab-props';
import { useCreateRollout, useDeleteRollout, useOrderRollouts, useRollouts, useUpdateRollout } from './api';
import { RolloutForm } from './RolloutForm';

function describeRollout(rollout: Rollout): string {
  if (rollout.threshold) return `${rollout.threshold.percentage}% of entities`;
  const segment = rollout.segment!;
  return segmentsOf(segment).join(` ${SEGMENT_OPERATOR_LABELS[segment.segmentOperator]} `);
}

const rolloutValue = (rollout: Rollout) => (rollout.threshold ?? rollout.segment)!.value;

export default function RolloutsTab({ namespaceKey, flag }: FlagTabProps) {
  const writable = useWritable();
  const rollouts = useRollouts(namespaceKey, flag.key);
  const segments = useSegments(namespaceKey);
  const createRollout = useCreateRollout(namespaceKey, flag.key);
  const updateRollout = useUpdateRollout(namespaceKey, flag.key);
  const deleteRollout = useDeleteRollout(namespaceKey, flag.key);
  const orderRollouts = useOrderRollouts(namespaceKey, flag.key);
  const updateFlag = useUpdateFlag(namespaceKey);
  const [editing, setEditing] = useState<Rollout | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Rollout | null>(null);
  const [defaultValue, setDefaultValue] = useState(flag.enabled);

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
        <ReasonButton className="button button-primary" reason={writable.reason} onClick={() => setEditing('new')}>
          New Rollout
        </ReasonButton>
      </header>
      {list.length > 0 && (
        <SortableList
          items={list}
          itemKey={(rollout) => rollout.id}
          itemLabel={(_rollout, index) => `rollout ${index + 1}`}
          disabled={writable.disabled}
          disabledReason={writable.reason}
          onReorder={(next) => report('Successfully reordered rollouts')(orderRollouts.mutateAsync(next))}
        >
          {(rollout, index) => (
            <article className="rule" aria-label={`Rollout ${index + 1}`}>
              <header className="rule-header">
                <strong>{rollout.threshold ? 'Threshold' : 'Segment'}</strong>
                {rollout.segment ? (
                  <SegmentNames
                    segmentKeys={segmentsOf(rollout.segment)}
                    operator={rollout.segment.segmentOperator}
                    segments={segments.data?.segments ?? []}
                  />
                ) : (
                  <span>{describeRollout(rollout)}</span>
                )}
                <span className="badge">{String(rolloutValue(rollout))}</span>
                <span className="row-actions">
                  <EditDeleteButtons
                    name={`rollout ${index + 1}`}
                    {...writable}
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
            updateFlag.mutateAsync({
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
            disabled={writable.disabled}
            onChange={(event) => setDefaultValue(event.target.value === 'true')}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </label>
        <ReasonButton
          type="submit"
          className="button"
          disabled={defaultValue === flag.enabled}
          reason={writable.reason}
        >
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
                  ? updateRollout.mutateAsync({ id: rollout.id, values })
                  : createRollout.mutateAsync({ values, rank: list.length + 1 })
                ).then(() => setEditing(null)),
              )
            }
          />
        )}
        deleting={deleting}
        onCloseDelete={() => setDeleting(null)}
        deleteNoun="rollout for"
        deleteName={deleting ? describeRollout(deleting) : ''}
        onDelete={(rollout) => deleteRollout.mutateAsync(rollout.id)}
      />
    </section>
  );
}
