import '../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { TLinkedFlag, TSurveyStatus } from '../../../domain/surveys/types';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { ActionsMenu, type Action } from '../../components/ActionsMenu';
import { DeleteDialog, Dialog } from '../../components/Dialog';
import { DataTable, EmptyState } from '../../components/RowActions';
import { RelativeTime } from '../../components/RelativeTime';
import { ReasonButton } from '../../components/Tooltip';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { toastError, toastOutcome, toastSuccess } from '../../stores/toasts';
import { resultsPaths } from '../survey-results';
import {
  type SurveyEnvironment,
  type SurveySummary,
  surveyPaths,
  surveysQuery,
  useCopySurvey,
  useCreateSurvey,
  useDeleteSurvey,
  useSaveSurvey,
} from './api';
import { SetupGuide } from './SetupGuide';
import { draftOf, STATUS_LABELS } from './status';
import { ENVIRONMENT_LABELS, SurveysArea } from './SurveysArea';
import { TEMPLATES } from './templates';

export default function SurveysPage({ params }: { params: Record<string, string | undefined> }) {
  return (
    <SurveysArea environmentId={params.environmentId} tab="surveys">
      {(environment, all) => <SurveyList key={environment.id} environment={environment} all={all} />}
    </SurveysArea>
  );
}

/** The flag the flag page's "New survey for this flag" passes (`?linkFlag=key&values=a,b`), if any. */
function linkedFlagOf(search: string): TLinkedFlag | null {
  const query = new URLSearchParams(search);
  const flagKey = query.get('linkFlag');
  const variants = (query.get('values') ?? '').split(',').filter(Boolean);
  return flagKey && variants.length > 0 ? { flagKey, variants } : null;
}

const STATUS_FILTERS: ('' | TSurveyStatus)[] = ['', 'draft', 'inProgress', 'paused', 'completed'];

function SurveyList({ environment, all }: { environment: SurveyEnvironment; all: SurveyEnvironment[] }) {
  const namespaceKey = useNamespaceKey();
  const writable = useWritable();
  const surveys = useQuery(surveysQuery(namespaceKey, environment.id));
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<'' | TSurveyStatus>('');
  const [choosing, setChoosing] = useState(false);
  const [deleting, setDeleting] = useState<SurveySummary>();
  const [, navigate] = useLocation();
  // An environment no widget has synced with yet opens on the set-up guide, until the operator moves on.
  const [guiding, setGuiding] = useState(!environment.widgetSetupCompleted);
  const save = useSaveSurvey(namespaceKey, environment.id);
  const remove = useDeleteSurvey(namespaceKey, environment.id);
  const copy = useCopySurvey(namespaceKey, environment.id);
  const editHref = (survey: { id: string }) => namespacePath(namespaceKey, surveyPaths.edit(environment.id, survey.id));
  const others = all.filter((other) => other.id !== environment.id);
  const shown = (surveys.data ?? []).filter(
    (survey) =>
      (status === '' || survey.status === status) && survey.name.toLowerCase().includes(search.trim().toLowerCase()),
  );
  const reason = writable.reason;

  const setSurveyStatus = (survey: SurveySummary, next: TSurveyStatus, message: string) =>
    toastOutcome(save.mutateAsync({ id: survey.id, survey: { ...draftOf(survey), status: next } }), message);

  const actionsOf = (survey: SurveySummary): Action[] => [
    { label: 'Edit', onSelect: () => navigate(editHref(survey)) },
    survey.status === 'inProgress'
      ? {
          label: 'Pause',
          disabled: writable.disabled,
          reason,
          onSelect: () => setSurveyStatus(survey, 'paused', 'Successfully paused survey'),
        }
      : {
          label: survey.status === 'draft' ? 'Publish' : 'Resume',
          disabled: writable.disabled,
          reason,
          onSelect: () => setSurveyStatus(survey, 'inProgress', 'Successfully published survey'),
        },
    ...others.map((other) => ({
      label: `Copy to ${ENVIRONMENT_LABELS[other.type]}`,
      disabled: writable.disabled,
      reason,
      onSelect: () => toastOutcome(copy.mutateAsync({ id: survey.id, to: other.id }), 'Successfully copied survey'),
    })),
    { label: 'Delete', danger: true, disabled: writable.disabled, reason, onSelect: () => setDeleting(survey) },
  ];

  return (
    <>
      <div className="toolbar">
        <input
          type="search"
          className="search"
          aria-label="Search surveys"
          placeholder="Search by name"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <select aria-label="Status" value={status} onChange={(event) => setStatus(event.target.value as TSurveyStatus)}>
          {STATUS_FILTERS.map((value) => (
            <option key={value} value={value}>
              {value ? STATUS_LABELS[value] : 'All statuses'}
            </option>
          ))}
        </select>
        <ReasonButton className="button button-primary" reason={reason} onClick={() => setChoosing(true)}>
          New Survey
        </ReasonButton>
      </div>
      {surveys.isError && <p role="alert">{surveys.error.message}</p>}
      {surveys.data && surveys.data.length === 0 && guiding ? (
        <SetupGuide environment={environment} onDone={() => setGuiding(false)} />
      ) : surveys.data && surveys.data.length === 0 ? (
        <EmptyState title="No surveys yet.">
          Start from a blank survey or a template with New Survey; publish it and the widget shows it on the next visit
          of every page that runs this environment's snippet.
        </EmptyState>
      ) : (
        <>
          <DataTable columns={['Name', 'Status', 'Triggers', 'Displays', 'Responses', 'Updated']}>
            {shown.map((survey) => (
              <SurveyRow
                key={survey.id}
                survey={survey}
                editHref={editHref(survey)}
                resultsHref={namespacePath(namespaceKey, resultsPaths.results(environment.id, survey.id))}
                actions={actionsOf(survey)}
              />
            ))}
          </DataTable>
          {surveys.data && shown.length === 0 && <p className="muted">No surveys match your search.</p>}
        </>
      )}
      <NewSurveyDialog
        open={choosing}
        onClose={() => setChoosing(false)}
        environmentId={environment.id}
        editHref={editHref}
      />
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(undefined)}
        title="Delete Survey"
        onDelete={(survey) => remove.mutateAsync(survey.id)}
        success="Successfully deleted survey"
      >
        {(survey) => (
          <>
            Are you sure you want to delete the survey <strong>{survey.name}</strong> with its displays and responses?
          </>
        )}
      </DeleteDialog>
    </>
  );
}

function SurveyRow({
  survey,
  editHref,
  resultsHref,
  actions,
}: {
  survey: SurveySummary;
  editHref: string;
  resultsHref: string;
  actions: Action[];
}) {
  return (
    <tr>
      <td>
        <Link href={editHref}>{survey.name}</Link>
      </td>
      <td>
        <span className="badge">{STATUS_LABELS[survey.status]}</span>
      </td>
      <td>{survey.triggers.join(', ') || <span className="muted">None</span>}</td>
      <td>{survey.displayCount.toLocaleString('en-US')}</td>
      <td>
        {survey.responseCount.toLocaleString('en-US')} <Link href={resultsHref}>Results</Link>
      </td>
      <td>
        <RelativeTime value={survey.updatedAt} />
      </td>
      <td className="row-actions">
        <ActionsMenu actions={actions} />
      </td>
    </tr>
  );
}

/** The templates to start a survey from; one chosen, the survey is created and opens in the editor. */
function NewSurveyDialog({
  open,
  onClose,
  environmentId,
  editHref,
}: {
  open: boolean;
  onClose(): void;
  environmentId: string;
  editHref(survey: { id: string }): string;
}) {
  const create = useCreateSurvey(useNamespaceKey(), environmentId);
  const [, navigate] = useLocation();
  // Read from the address as it is (wouter's useSearch would put its code on the console's first page).
  const linkedFlag = linkedFlagOf(window.location.search);
  return (
    <Dialog open={open} onClose={onClose} title="New Survey">
      {linkedFlag && (
        <p className="muted">
          Linked to flag <code>{linkedFlag.flagKey}</code> ({linkedFlag.variants.join(', ')}): change it in the editor's
          Flag and segment section.
        </p>
      )}
      <ul className="template-list">
        {TEMPLATES.map((template) => (
          <li key={template.name}>
            <button
              type="button"
              className="template"
              disabled={create.isPending}
              onClick={() =>
                create
                  .mutateAsync({ ...template.build(), ...(linkedFlag && { linkedFlag }) })
                  .then((survey) => {
                    toastSuccess('Successfully created survey');
                    // An empty query ends the flag page's pre-fill.
                    navigate(`${editHref(survey)}?`);
                  })
                  .catch((error) => toastError(errorMessage(error)))
              }
            >
              <strong>{template.name}</strong>
              <span className="muted">{template.description}</span>
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
