import '../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { CopyButton } from '../../components/CopyButton';
import { DeleteDialog, Dialog } from '../../components/Dialog';
import { DataTable, EmptyState } from '../../components/RowActions';
import { RelativeTime } from '../../components/RelativeTime';
import { ReasonButton } from '../../components/Tooltip';
import { useForm } from '../../lib/form';
import { useNamespaceKey } from '../../lib/namespace';
import { toastError, toastSuccess } from '../../stores/toasts';
import { type SurveyEnvironment, SurveysArea, surveysQuery } from '../surveys';
import {
  deliveriesQuery,
  useCreateWebhook,
  useDeleteWebhook,
  useResumeWebhook,
  WEBHOOK_TRIGGERS,
  type Webhook,
  type WebhookTrigger,
  webhooksQuery,
} from './api';
import { useResultsStyles } from './styles';

const TRIGGER_LABELS: Record<WebhookTrigger, string> = {
  responseCreated: 'Response created',
  responseUpdated: 'Response updated',
  responseFinished: 'Response finished',
};

/** The environment's webhooks: Formbricks 1.6's response events, signed, to URLs of the operator's. */
export default function WebhooksPage({ params }: { params: Record<string, string | undefined> }) {
  useResultsStyles();
  return (
    <SurveysArea environmentId={params.environmentId} tab="webhooks">
      {(environment) => <Webhooks environment={environment} />}
    </SurveysArea>
  );
}

function Webhooks({ environment }: { environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const { reason } = useWritable();
  const hooks = useQuery(webhooksQuery(namespaceKey, environment.id));
  const surveys = useQuery(surveysQuery(namespaceKey, environment.id));
  const remove = useDeleteWebhook(namespaceKey, environment.id);
  const resume = useResumeWebhook(namespaceKey, environment.id);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Webhook>();
  const [deleting, setDeleting] = useState<Webhook>();
  const surveyName = (id: string) => surveys.data?.find((survey) => survey.id === id)?.name ?? id;

  return (
    <>
      <div className="section-header">
        <div>
          <h2>Webhooks</h2>
          <p className="muted">
            Each response event is posted as JSON to the webhook’s URL, signed with an HMAC-SHA256 of its webhook-id,
            webhook-timestamp and body in the webhook-signature header, and retried with a growing delay until it is
            taken. A webhook whose deliveries keep failing is paused until you resume it.
          </p>
        </div>
        <ReasonButton className="button button-primary" reason={reason} onClick={() => setCreating(true)}>
          New Webhook
        </ReasonButton>
      </div>
      {hooks.isPending && <p className="muted">Loading…</p>}
      {hooks.isError && <p role="alert">{hooks.error.message}</p>}
      {hooks.data &&
        (hooks.data.length === 0 ? (
          <EmptyState title="No webhooks yet.">
            Add one to hear of responses as they are created, updated and finished.
          </EmptyState>
        ) : (
          <DataTable columns={['Name', 'URL', 'Triggers', 'Surveys', 'Queue', 'Created']}>
            {hooks.data.map((hook) => (
              <tr key={hook.id}>
                <td>{hook.name || <span className="muted">Unnamed</span>}</td>
                <td>
                  <code className="code">{hook.url}</code>
                </td>
                <td>{hook.triggers.map((trigger) => TRIGGER_LABELS[trigger]).join(', ')}</td>
                <td>{hook.surveyIds.length === 0 ? 'All surveys' : hook.surveyIds.map(surveyName).join(', ')}</td>
                <td>
                  <Queue environmentId={environment.id} hook={hook} />
                </td>
                <td>
                  <RelativeTime value={hook.createdAt} />
                </td>
                <td className="row-actions">
                  {hook.pausedAt && (
                    <ReasonButton
                      className="button"
                      reason={reason}
                      aria-label={`Resume webhook ${hook.name || hook.url}`}
                      disabled={resume.isPending}
                      onClick={() =>
                        resume
                          .mutateAsync(hook.id)
                          .then(() => toastSuccess('Webhook resumed'))
                          .catch((error) => toastError(errorMessage(error)))
                      }
                    >
                      Resume
                    </ReasonButton>
                  )}
                  <ReasonButton
                    className="button button-danger"
                    reason={reason}
                    aria-label={`Delete webhook ${hook.name || hook.url}`}
                    onClick={() => setDeleting(hook)}
                  >
                    Delete
                  </ReasonButton>
                </td>
              </tr>
            ))}
          </DataTable>
        ))}
      <Dialog
        open={creating}
        onClose={() => {
          setCreating(false);
          setCreated(undefined);
        }}
        title={created ? 'Webhook created' : 'New Webhook'}
      >
        {created ? (
          <>
            <p>
              Keep this signing secret now, it is shown only once: verify each delivery’s{' '}
              <code className="code">webhook-signature</code> with it.
            </p>
            <div className="results-secret">
              <code className="code" data-testid="webhook-secret">
                {created.secret}
              </code>
              <CopyButton text={created.secret} label="Copy the signing secret" />
            </div>
            <div className="form-actions">
              <button
                type="button"
                className="button button-primary"
                onClick={() => {
                  setCreating(false);
                  setCreated(undefined);
                }}
              >
                Done
              </button>
            </div>
          </>
        ) : (
          <WebhookForm environment={environment} onCreated={setCreated} />
        )}
      </Dialog>
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(undefined)}
        noun="webhook"
        nameOf={(hook) => hook.name || hook.url}
        onDelete={(hook) => remove.mutateAsync(hook.id)}
      />
    </>
  );
}

/** The webhook's deliveries still to make (delivered ones leave the queue), with the last failure; whether it is paused. */
function Queue({ environmentId, hook }: { environmentId: string; hook: Webhook }) {
  const namespaceKey = useNamespaceKey();
  const deliveries = useQuery(deliveriesQuery(namespaceKey, environmentId, hook.id));
  if (!deliveries.data) return <span className="muted">…</span>;
  const paused = hook.pausedAt && (
    <strong>
      Paused <RelativeTime value={hook.pausedAt} />
      {' · '}
    </strong>
  );
  if (deliveries.data.length === 0) return <span className="muted">{paused}Nothing waiting</span>;
  const failed = deliveries.data.filter((delivery) => delivery.status === 'failed').length;
  const lastError = deliveries.data.find((delivery) => delivery.lastError)?.lastError;
  return (
    <span>
      {paused}
      {deliveries.data.length - failed} waiting{failed > 0 && `, ${failed} given up`}
      {lastError && <span className="muted"> · last error: {lastError}</span>}
    </span>
  );
}

const webhookSchema = v.pipe(
  v.object({
    name: v.string(),
    url: v.pipe(
      v.string(),
      v.check((url) => /^https?:\/\/\S+$/i.test(url.trim()), 'URL must be an http or https URL'),
    ),
    triggers: v.pipe(v.array(v.picklist(WEBHOOK_TRIGGERS)), v.minLength(1, 'Choose at least one trigger')),
    allSurveys: v.boolean(),
    surveyIds: v.array(v.string()),
  }),
  v.forward(
    v.partialCheck(
      [['allSurveys'], ['surveyIds']],
      ({ allSurveys, surveyIds }) => allSurveys || surveyIds.length > 0,
      'Choose at least one survey',
    ),
    ['surveyIds'],
  ),
);
type WebhookValues = v.InferInput<typeof webhookSchema>;
const NEW_WEBHOOK: WebhookValues = {
  name: '',
  url: '',
  triggers: [...WEBHOOK_TRIGGERS],
  allSurveys: true,
  surveyIds: [],
};

function WebhookForm({ environment, onCreated }: { environment: SurveyEnvironment; onCreated(hook: Webhook): void }) {
  const namespaceKey = useNamespaceKey();
  const surveys = useQuery(surveysQuery(namespaceKey, environment.id));
  const create = useCreateWebhook(namespaceKey, environment.id);
  const form = useForm(NEW_WEBHOOK, webhookSchema);
  const [error, setError] = useState<string>();
  const { values } = form;

  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        // One problem at a time, in the order of the fields.
        const problem = form.errors.url ?? form.errors.triggers ?? form.errors.surveyIds;
        if (problem) return setError(problem);
        setError(undefined);
        create
          .mutateAsync({
            name: values.name.trim() || null,
            url: values.url.trim(),
            triggers: values.triggers,
            surveyIds: values.allSurveys ? [] : values.surveyIds,
          })
          .then((hook) => {
            toastSuccess('Successfully created webhook');
            onCreated(hook);
          })
          .catch((failure) => setError(errorMessage(failure)));
      }}
    >
      <label className="field">
        <span>Name</span>
        <input {...form.field('name')} placeholder="Optional" />
      </label>
      <label className="field">
        <span>URL</span>
        <input type="url" required {...form.field('url')} placeholder="https://example.com/formbricks" />
      </label>
      <fieldset className="radio-group">
        <legend>Triggers</legend>
        {WEBHOOK_TRIGGERS.map((trigger) => (
          <label key={trigger} className="check">
            <input type="checkbox" {...form.member('triggers', trigger)} />
            {TRIGGER_LABELS[trigger]}
          </label>
        ))}
      </fieldset>
      <fieldset className="radio-group">
        <legend>Surveys</legend>
        <label className="check">
          <input type="checkbox" {...form.checkbox('allSurveys')} />
          All surveys, current and future
        </label>
        {!values.allSurveys &&
          (surveys.data ?? []).map((survey) => (
            <label key={survey.id} className="check">
              <input type="checkbox" {...form.member('surveyIds', survey.id)} />
              {survey.name}
            </label>
          ))}
      </fieldset>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create
        </button>
      </div>
    </form>
  );
}
