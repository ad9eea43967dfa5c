import '../../app/shared-chunk';
import { Suspense, useState } from 'react';
import type { Constraint, Segment } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { EntityPage } from '../../components/EntityPage';
import { ItemDialogs } from '../../components/ItemDialogs';
import { EditDeleteButtons, TableHead } from '../../components/RowActions';
import { ReasonButton } from '../../components/Tooltip';
import { ValueList } from '../../components/ValueList';
import { truncate } from '../../lib/format';
import { toastError, toastSuccess } from '../../stores/toasts';
import { useWritable } from '../../api/writable';
import { SegmentHistory } from '../history';
import { useNamespaces } from '../namespaces';
import { ConstraintForm } from './ConstraintForm';
import { LIST_OPERATORS, NO_VALUE_OPERATORS, operatorLabel, parseList, typeLabel } from './operators';
import {
  type ConstraintValues,
  useCopySegment,
  useDeleteConstraint,
  useDeleteSegment,
  useSaveConstraint,
  useSegment,
} from './api';
import { SegmentForm } from './SegmentForm';

function ConstraintValue({ constraint }: { constraint: Constraint }) {
  if (NO_VALUE_OPERATORS.has(constraint.operator)) return null;
  const list = LIST_OPERATORS.has(constraint.operator) ? parseList(constraint.value) : undefined;
  if (!list) return <>{truncate(constraint.value)}</>;
  return (
    <ValueList
      items={list}
      render={(item, index) => (
        <span key={index} className="chip">
          {String(item)}
        </span>
      )}
    />
  );
}

function Constraints({ namespaceKey, segment }: { namespaceKey: string; segment: Segment }) {
  const writable = useWritable();
  const saveConstraint = useSaveConstraint(namespaceKey);
  const deleteConstraint = useDeleteConstraint(namespaceKey);
  const [editing, setEditing] = useState<Constraint | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Constraint | null>(null);

  const save = (values: ConstraintValues) => {
    const id = editing === 'new' ? undefined : editing?.id;
    return saveConstraint
      .mutateAsync({ segmentKey: segment.key, id, values })
      .then(() => {
        setEditing(null);
        toastSuccess(id ? 'Successfully updated constraint' : 'Successfully created constraint');
      })
      .catch((error) => toastError(errorMessage(error)));
  };

  return (
    <section aria-label="Constraints">
      <header className="section-header">
        <h2>Constraints</h2>
        <ReasonButton className="button button-primary" reason={writable.reason} onClick={() => setEditing('new')}>
          New Constraint
        </ReasonButton>
      </header>
      {segment.constraints.length === 0 ? (
        <p className="muted">This segment has no constraints.</p>
      ) : (
        <table className="table">
          <TableHead columns={['Property', 'Type', 'Operator', 'Value', 'Description']} actionsLabel="Edit/Delete" />
          <tbody>
            {segment.constraints.map((constraint) => (
              <tr key={constraint.id}>
                <td>{truncate(constraint.property)}</td>
                <td>{typeLabel(constraint.type)}</td>
                <td>{operatorLabel(constraint.type, constraint.operator)}</td>
                <td>
                  <ConstraintValue constraint={constraint} />
                </td>
                <td>{truncate(constraint.description)}</td>
                <td className="row-actions">
                  <EditDeleteButtons
                    name={constraint.property}
                    {...writable}
                    onEdit={() => setEditing(constraint)}
                    onDelete={() => setDeleting(constraint)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ItemDialogs
        entity="Constraint"
        editing={editing}
        onCloseEdit={() => setEditing(null)}
        side
        form={(constraint) => <ConstraintForm constraint={constraint} onSave={save} />}
        deleting={deleting}
        onCloseDelete={() => setDeleting(null)}
        deleteNoun="constraint for"
        deleteName={deleting?.property}
        onDelete={(constraint) => deleteConstraint.mutateAsync({ segmentKey: segment.key, id: constraint.id })}
      />
    </section>
  );
}

export default function SegmentPage({ params }: { params: Record<string, string | undefined> }) {
  const namespaceKey = useNamespaceKey();
  const segment = useSegment(namespaceKey, params.segmentKey!);
  const copySegment = useCopySegment(namespaceKey);
  const deleteSegment = useDeleteSegment(namespaceKey);
  const namespaces = useNamespaces().data?.namespaces ?? [];

  if (segment.isPending) return <p className="muted">Loading…</p>;
  if (segment.isError) return <p role="alert">{segment.error.message}</p>;
  const data = segment.data;

  return (
    <EntityPage
      entity="segment"
      data={data}
      namespaceKey={namespaceKey}
      namespaces={namespaces}
      listHref={namespacePath(namespaceKey, '/segments')}
      onCopy={(to) =>
        copySegment.mutateAsync({ segmentKey: data.key, to: { namespaceKey: to.namespaceKey, segmentKey: to.key } })
      }
      onDelete={() => deleteSegment.mutateAsync(data.key)}
    >
      <SegmentForm key={data.key} namespaceKey={namespaceKey} segment={data} />
      <Constraints namespaceKey={namespaceKey} segment={data} />
      <HistorySection namespaceKey={namespaceKey} segmentKey={data.key} />
    </EntityPage>
  );
}

/** The segment's changes, loaded when the operator opens the section. */
function HistorySection({ namespaceKey, segmentKey }: { namespaceKey: string; segmentKey: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="history-section" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>History</summary>
      {open && (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <SegmentHistory namespaceKey={namespaceKey} segmentKey={segmentKey} />
        </Suspense>
      )}
    </details>
  );
}
