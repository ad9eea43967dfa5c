import '../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { URL_RULES } from '../../../domain/surveys/types';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { DeleteDialog, Dialog } from '../../components/Dialog';
import { DataTable } from '../../components/RowActions';
import { Field } from '../../components/Field';
import { RelativeTime } from '../../components/RelativeTime';
import { ReasonButton } from '../../components/Tooltip';
import { useNamespaceKey } from '../../lib/namespace';
import { useForm } from '../../lib/form';
import { namespacePath } from '../../lib/paths';
import { toastError, toastSuccess } from '../../stores/toasts';
import {
  type ActionClassUsage,
  actionClassesQuery,
  type SurveyEnvironment,
  surveyPaths,
  useCreateActionClass,
  useDeleteActionClass,
  useUpdateActionClass,
} from './api';
import {
  actionClassDescription,
  actionClassForm,
  actionClassFormSchema,
  actionClassInput,
  EMPTY_ACTION_CLASS,
} from './action-form';
import { URL_RULE_LABELS } from './labels';
import { SurveysArea } from './SurveysArea';

export default function ActionsPage({ params }: { params: Record<string, string | undefined> }) {
  return (
    <SurveysArea environmentId={params.environmentId} tab="actions">
      {(environment) => <ActionClasses environment={environment} />}
    </SurveysArea>
  );
}

const TYPE_LABELS = { code: 'Code', noCode: 'No code', automatic: 'Automatic' } as const;

function ActionClasses({ environment }: { environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const writable = useWritable();
  const classes = useQuery(actionClassesQuery(namespaceKey, environment.id));
  const remove = useDeleteActionClass(namespaceKey, environment.id);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ActionClassUsage>();
  const [editing, setEditing] = useState<ActionClassUsage>();
  const reason = writable.reason;
  return (
    <>
      <div className="toolbar">
        <p className="muted">
          What visitors do that can trigger a survey: a <code>formbricks.track()</code> call in code, a page, a click,
          or one of the automatic actions.
        </p>
        <ReasonButton className="button button-primary" reason={reason} onClick={() => setCreating(true)}>
          New Action
        </ReasonButton>
      </div>
      {classes.isError && <p role="alert">{classes.error.message}</p>}
      {classes.data && (
        <DataTable columns={['Name', 'Type', 'Fires on', 'Surveys', 'Last fired']}>
          {classes.data.map((actionClass) => (
            <tr key={actionClass.id}>
              <td>{actionClass.name}</td>
              <td>{TYPE_LABELS[actionClass.type]}</td>
              <td>{actionClassDescription(actionClass)}</td>
              <td>
                {actionClass.surveys.length === 0 ? (
                  <span className="muted">None</span>
                ) : (
                  actionClass.surveys.map((survey, index) => (
                    <span key={survey.id}>
                      {index > 0 && ', '}
                      <Link href={namespacePath(namespaceKey, surveyPaths.edit(environment.id, survey.id))}>
                        {survey.name}
                      </Link>
                    </span>
                  ))
                )}
              </td>
              <td>
                {actionClass.lastFiredAt ? (
                  <RelativeTime value={actionClass.lastFiredAt} />
                ) : (
                  <span className="muted">Never</span>
                )}
              </td>
              <td className="row-actions">
                {actionClass.type !== 'automatic' && (
                  <ReasonButton
                    className="button"
                    reason={reason}
                    aria-label={`Edit ${actionClass.name}`}
                    onClick={() => setEditing(actionClass)}
                  >
                    Edit
                  </ReasonButton>
                )}
                {actionClass.type !== 'automatic' && (
                  <ReasonButton
                    className="button button-danger"
                    reason={
                      reason ??
                      (actionClass.surveys.length > 0
                        ? 'Used by a survey: remove it from its triggers first'
                        : undefined)
                    }
                    aria-label={`Delete ${actionClass.name}`}
                    onClick={() => setDeleting(actionClass)}
                  >
                    Delete
                  </ReasonButton>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Dialog open={creating} onClose={() => setCreating(false)} title="New Action" side>
        <ActionClassEditor environment={environment} onDone={() => setCreating(false)} />
      </Dialog>
      <Dialog open={editing !== undefined} onClose={() => setEditing(undefined)} title="Edit Action" side>
        {editing && (
          <ActionClassEditor environment={environment} editing={editing} onDone={() => setEditing(undefined)} />
        )}
      </Dialog>
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(undefined)}
        noun="action"
        nameOf={(actionClass) => actionClass.name}
        onDelete={(actionClass) => remove.mutateAsync(actionClass.id)}
      />
    </>
  );
}

/**
 * The form of a new action class (also used from the editor's trigger picker) or of one being edited.
 * Surveys name their triggers, so a class that triggers surveys keeps its name.
 */
export function ActionClassEditor({
  environment,
  editing,
  onDone,
}: {
  environment: SurveyEnvironment;
  editing?: ActionClassUsage;
  onDone(name?: string): void;
}) {
  const namespaceKey = useNamespaceKey();
  const create = useCreateActionClass(namespaceKey, environment.id);
  const update = useUpdateActionClass(namespaceKey, environment.id);
  const form = useForm(editing ? actionClassForm(editing) : EMPTY_ACTION_CLASS, actionClassFormSchema);
  const nameFixed = (editing?.surveys.length ?? 0) > 0;
  const { values } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touch('name');
    form.touch('value');
    if (!form.valid) return;
    const input = actionClassInput(values);
    (editing ? update.mutateAsync({ id: editing.id, input }) : create.mutateAsync(input))
      .then((saved) => {
        toastSuccess(editing ? 'Successfully updated action' : 'Successfully created action');
        onDone(saved.name);
      })
      .catch((error) => toastError(errorMessage(error)));
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field
        label="Name"
        error={form.error('name')}
        hint={nameFixed ? 'Surveys use this action as a trigger: its name stays.' : undefined}
      >
        {(props) => <input {...props} {...form.field('name')} readOnly={nameFixed} />}
      </Field>
      <Field label="Description">{(props) => <input {...props} {...form.field('description')} />}</Field>
      <Field label="Type">
        {(props) => (
          <select {...props} {...form.choice('type')}>
            <option value="code">Code: formbricks.track(name)</option>
            <option value="noCode">No code: a page, a click</option>
          </select>
        )}
      </Field>
      {values.type === 'noCode' && (
        <>
          <Field label="Fires on">
            {(props) => (
              <select {...props} {...form.choice('kind')}>
                <option value="pageUrl">Page URL</option>
                <option value="cssSelector">Click on a CSS selector</option>
                <option value="innerHtml">Click on an element with this text</option>
              </select>
            )}
          </Field>
          {values.kind === 'pageUrl' && (
            <Field label="URL rule">
              {(props) => (
                <select {...props} {...form.choice('rule')}>
                  {URL_RULES.map((rule) => (
                    <option key={rule} value={rule}>
                      {URL_RULE_LABELS[rule]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <Field
            label={values.kind === 'pageUrl' ? 'URL' : values.kind === 'cssSelector' ? 'CSS selector' : 'Inner text'}
            error={form.error('value')}
          >
            {(props) => <input {...props} {...form.field('value')} />}
          </Field>
        </>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => onDone()}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={create.isPending || update.isPending}>
          {editing ? 'Update' : 'Create'}
        </button>
      </div>
    </form>
  );
}
