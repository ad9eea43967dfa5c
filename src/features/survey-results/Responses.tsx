import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import type { TSurvey } from '../../../domain/surveys/types';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { DeleteDialog } from '../../components/Dialog';
import { NextPageButton } from '../../components/NextPageButton';
import { Timestamp } from '../../components/Timestamp';
import { ReasonButton } from '../../components/Tooltip';
import { useForm } from '../../lib/form';
import { toastError } from '../../stores/toasts';
import {
  type ResultResponse,
  responsesQuery,
  useAddNote,
  useDeleteResponse,
  useTagResponse,
  useUntagResponse,
} from './api';
import type { ResultsView } from './filter';
import { answerText, duration } from './format';

/** The filtered responses, newest first, a page at a time. */
export function Responses({ namespaceKey, environmentId, survey, filter }: ResultsView) {
  const responses = useInfiniteQuery(responsesQuery(namespaceKey, environmentId, survey.id, filter));
  const remove = useDeleteResponse(namespaceKey, environmentId);
  const [deleting, setDeleting] = useState<ResultResponse>();
  if (responses.isPending) return <p className="muted">Loading…</p>;
  if (responses.isError) return <p role="alert">{responses.error.message}</p>;
  const list = responses.data.pages.flatMap((page) => page.data);
  const where = { namespaceKey, environmentId, survey };
  return (
    <section aria-label="Responses">
      {list.length === 0 ? (
        <div className="empty-state">
          <p>
            <strong>No responses.</strong>
          </p>
          <p className="muted">No response matches this view yet.</p>
        </div>
      ) : (
        <ol className="results-responses" aria-label="Responses, newest first">
          {list.map((response) => (
            <ResponseCard key={response.id} {...where} response={response} onDelete={() => setDeleting(response)} />
          ))}
        </ol>
      )}
      <NextPageButton query={responses} label="Load more" busyLabel="Loading…" />
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(undefined)}
        noun="response"
        nameOf={(response) => response.id}
        onDelete={(response) => remove.mutateAsync(response.id)}
      />
    </section>
  );
}

function ResponseCard({
  namespaceKey,
  environmentId,
  survey,
  response,
  onDelete,
}: {
  namespaceKey: string;
  environmentId: string;
  survey: TSurvey;
  response: ResultResponse;
  onDelete(): void;
}) {
  const writable = useWritable();
  const reason = writable.reason;
  const tag = useTagResponse(namespaceKey, environmentId);
  const note = useAddNote(namespaceKey, environmentId);
  const untag = useUntagResponse(namespaceKey, environmentId);
  const who = response.person?.userId ?? 'Anonymous';
  const hidden = survey.hiddenFields.enabled ? (survey.hiddenFields.fieldIds ?? []) : [];
  const answered = survey.questions.filter((question) => response.data[question.id] !== undefined);
  const { userAgent, source, url } = response.meta;
  const attributes = Object.entries(response.personAttributes ?? {});
  return (
    <li className="results-response" aria-label={`Response of ${who}`}>
      <header>
        <div>
          <strong>{who}</strong>{' '}
          <span className="muted">
            <Timestamp value={response.createdAt} />
          </span>{' '}
          <span className="badge">{response.finished ? 'Completed' : 'Not completed'}</span>
        </div>
        <ReasonButton className="button button-danger" reason={reason} onClick={onDelete}>
          Delete
        </ReasonButton>
      </header>
      <dl>
        {answered.map((question) => (
          <div key={question.id}>
            <dt>{question.headline}</dt>
            <dd>
              {answerText(response.data[question.id])}
              {response.ttc[question.id] ? (
                <span className="muted"> · {duration(response.ttc[question.id])}</span>
              ) : null}
            </dd>
          </div>
        ))}
        {hidden
          .filter((id) => response.data[id] !== undefined)
          .map((id) => (
            <div key={id}>
              <dt>{id}</dt>
              <dd>{answerText(response.data[id])}</dd>
            </div>
          ))}
        {answered.length === 0 && <dd className="muted">No answers yet.</dd>}
      </dl>
      <p className="muted">
        {response.ttc._total ? `Completed in ${duration(response.ttc._total)}` : 'No completion time'}
        {source ? ` · ${source}` : ''}
        {userAgent ? ` · ${[userAgent.browser, userAgent.os, userAgent.device].filter(Boolean).join(', ')}` : ''}
      </p>
      {url && <p className="muted">{url}</p>}
      {response.tags.length > 0 && (
        <ul className="choice-list" aria-label="Tags">
          {response.tags.map((item) => (
            <li key={item.id} className="chip">
              {item.name}
              <ReasonButton
                className="chip-remove"
                reason={reason}
                aria-label={`Remove tag ${item.name}`}
                disabled={untag.isPending}
                onClick={() =>
                  untag
                    .mutateAsync({ responseId: response.id, tagId: item.id })
                    .catch((error) => toastError(errorMessage(error)))
                }
              >
                ×
              </ReasonButton>
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>
          Details: {attributes.length} attributes, {response.notes.length} notes
        </summary>
        {attributes.length > 0 && (
          <dl>
            {attributes.map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
        <ul>
          {response.notes.map((item) => (
            <li key={item.id}>
              <strong>{item.user.name}</strong>: {item.text}
            </li>
          ))}
        </ul>
        <OneLineForm
          label="Tag name"
          action="Add tag"
          pending={tag.isPending}
          onSend={(name) => tag.mutateAsync({ responseId: response.id, name })}
        />
        <OneLineForm
          label="Note"
          action="Add note"
          pending={note.isPending}
          onSend={(text) => note.mutateAsync({ responseId: response.id, text })}
        />
      </details>
    </li>
  );
}

const oneLineSchema = v.object({ text: v.pipe(v.string(), v.trim(), v.nonEmpty()) });

/** A one-line form (a tag's name, a note): sends its trimmed text, and empties once it is saved. */
function OneLineForm({
  label,
  action,
  pending,
  onSend,
}: {
  label: string;
  action: string;
  pending: boolean;
  onSend(text: string): Promise<unknown>;
}) {
  const writable = useWritable();
  const form = useForm({ text: '' }, oneLineSchema);
  return (
    <form
      className="results-filter-row"
      onSubmit={(event) => {
        event.preventDefault();
        if (!form.valid) return;
        onSend(form.values.text.trim())
          .then(() => form.reset({ text: '' }))
          .catch((error) => toastError(errorMessage(error)));
      }}
    >
      <input aria-label={label} placeholder={label} {...form.field('text')} disabled={writable.disabled} />
      <ReasonButton type="submit" className="button" reason={writable.reason} disabled={pending}>
        {action}
      </ReasonButton>
    </form>
  );
}
