import { queryOptions } from '@tanstack/react-query';
import type { ResponseNote, ResponseTag } from '../../../domain/surveys/annotations';
import { encodeFilter, type ResponseFilter } from '../../../domain/surveys/response-filter';
import type { QuestionDropOff, QuestionSummary, SummaryMeta } from '../../../domain/surveys/summary';
import { API, request } from '../../api/client';
import { useInvalidatingMutation } from '../../api/mutation';
import { surveyKeys } from '../surveys';

/** One answer listed under a question: the newest answers first. */
export interface AnswerSample {
  responseId: string;
  value: unknown;
  updatedAt: string;
  person: { id: string; userId: string } | null;
}

export type ResultsQuestionSummary = QuestionSummary & { samples?: AnswerSample[] };

/** The summary the server computes (server/surveys/results.ts): Formbricks 1.6's figures. */
export interface ResultsSummary {
  meta: SummaryMeta;
  dropOff: QuestionDropOff[];
  questions: ResultsQuestionSummary[];
  hiddenFields: { fieldId: string; total: number; samples: AnswerSample[] }[];
}

export interface TrendDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  responses: number;
  nps: Record<string, number | null>;
  rating: Record<string, number | null>;
}

export type Tag = ResponseTag;
export type Note = ResponseNote;

/** A response as the results API lists it: Formbricks' response with its tags and notes. */
export interface ResultResponse {
  id: string;
  createdAt: string;
  updatedAt: string;
  surveyId: string;
  person: { id: string; userId: string } | null;
  personAttributes: Record<string, string> | null;
  finished: boolean;
  data: Record<string, unknown>;
  ttc: Record<string, number>;
  meta: {
    source?: string;
    url?: string;
    userAgent?: { browser?: string; os?: string; device?: string };
    [key: string]: unknown;
  };
  tags: Tag[];
  notes: Note[];
}

import type { Webhook, WebhookTrigger } from '../../../domain/surveys/webhooks';
export { WEBHOOK_TRIGGERS, type Webhook, type WebhookTrigger } from '../../../domain/surveys/webhooks';

export interface WebhookInput {
  name?: string | null;
  url: string;
  triggers: WebhookTrigger[];
  surveyIds: string[];
}

export interface WebhookDelivery {
  id: string;
  event: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
}

/** Responses fetched per page of the list. */
export const PAGE_SIZE = 25;

const enc = encodeURIComponent;
const environmentPath = (namespaceKey: string, environmentId: string) =>
  `${API}/namespaces/${enc(namespaceKey)}/surveys/environments/${enc(environmentId)}`;
const resultsPath = (namespaceKey: string, environmentId: string, surveyId: string) =>
  `${environmentPath(namespaceKey, environmentId)}/surveys/${enc(surveyId)}/results`;

/** The query string of a filtered read: `filter` (JSON) when it filters anything, and the other parameters. */
function query(filter: ResponseFilter, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  const text = encodeFilter(filter);
  if (text) params.set('filter', text);
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) params.set(key, value);
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** The CSV export of the filtered responses (streamed by the server; a plain link downloads it). */
export const exportHref = (namespaceKey: string, environmentId: string, surveyId: string, filter: ResponseFilter) =>
  `${resultsPath(namespaceKey, environmentId, surveyId)}/export.csv${query(filter)}`;

/**
 * Query keys: under the namespace's survey prefix (surveys/api.ts), so that a survey change there refreshes
 * results too; then the environment, then the survey and the filter.
 */
export const resultsKeys = {
  environment: (namespaceKey: string, environmentId: string) => surveyKeys.environment(namespaceKey, environmentId),
  survey: (namespaceKey: string, environmentId: string, surveyId: string) =>
    [...resultsKeys.environment(namespaceKey, environmentId), 'results', surveyId] as const,
  webhooks: (namespaceKey: string, environmentId: string) =>
    [...resultsKeys.environment(namespaceKey, environmentId), 'webhooks'] as const,
};

export const summaryQuery = (namespaceKey: string, environmentId: string, surveyId: string, filter: ResponseFilter) =>
  queryOptions({
    queryKey: [...resultsKeys.survey(namespaceKey, environmentId, surveyId), 'summary', filter],
    queryFn: () =>
      request<{ data: ResultsSummary }>(
        'GET',
        `${resultsPath(namespaceKey, environmentId, surveyId)}/summary${query(filter)}`,
      ).then((r) => r.data),
  });

export const trendsQuery = (namespaceKey: string, environmentId: string, surveyId: string, filter: ResponseFilter) =>
  queryOptions({
    queryKey: [...resultsKeys.survey(namespaceKey, environmentId, surveyId), 'trends', filter],
    queryFn: () =>
      request<{ data: TrendDay[] }>(
        'GET',
        `${resultsPath(namespaceKey, environmentId, surveyId)}/trends${query(filter)}`,
      ).then((r) => r.data),
  });

export interface ResponsePage {
  data: ResultResponse[];
  nextCursor: string | null;
}

/** The list's pages, newest first, by the server's keyset cursor (options for `useInfiniteQuery`). */
export const responsesQuery = (
  namespaceKey: string,
  environmentId: string,
  surveyId: string,
  filter: ResponseFilter,
) => ({
  queryKey: [...resultsKeys.survey(namespaceKey, environmentId, surveyId), 'responses', filter],
  initialPageParam: undefined as string | undefined,
  queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
    request<ResponsePage>(
      'GET',
      `${resultsPath(namespaceKey, environmentId, surveyId)}/responses${query(filter, {
        limit: String(PAGE_SIZE),
        cursor: pageParam,
      })}`,
    ),
  getNextPageParam: (page: ResponsePage) => page.nextCursor ?? undefined,
});

export const tagsQuery = (namespaceKey: string, environmentId: string) =>
  queryOptions({
    queryKey: [...resultsKeys.environment(namespaceKey, environmentId), 'tags'],
    queryFn: () =>
      request<{ data: Tag[] }>('GET', `${environmentPath(namespaceKey, environmentId)}/tags`).then((r) => r.data),
  });

export const webhooksQuery = (namespaceKey: string, environmentId: string) =>
  queryOptions({
    queryKey: resultsKeys.webhooks(namespaceKey, environmentId),
    queryFn: () =>
      request<{ data: Webhook[] }>('GET', `${environmentPath(namespaceKey, environmentId)}/webhooks`).then(
        (r) => r.data,
      ),
  });

export const deliveriesQuery = (namespaceKey: string, environmentId: string, webhookId: string) =>
  queryOptions({
    queryKey: [...resultsKeys.webhooks(namespaceKey, environmentId), webhookId, 'deliveries'],
    queryFn: () =>
      request<{ data: WebhookDelivery[] }>(
        'GET',
        `${environmentPath(namespaceKey, environmentId)}/webhooks/${enc(webhookId)}/deliveries`,
      ).then((r) => r.data),
  });

/** A change to the environment's results: its queries (and the survey list's counts) are fetched again. */
const useResultsMutation = <I, O>(namespaceKey: string, environmentId: string, mutationFn: (input: I) => Promise<O>) =>
  useInvalidatingMutation(mutationFn, () => [resultsKeys.environment(namespaceKey, environmentId)]);

export const useDeleteResponse = (namespaceKey: string, environmentId: string) =>
  useResultsMutation(namespaceKey, environmentId, (responseId: string) =>
    request<unknown>('DELETE', `${environmentPath(namespaceKey, environmentId)}/responses/${enc(responseId)}`),
  );

export const useTagResponse = (namespaceKey: string, environmentId: string) =>
  useResultsMutation(namespaceKey, environmentId, ({ responseId, name }: { responseId: string; name: string }) =>
    request<{ data: Tag }>(
      'POST',
      `${environmentPath(namespaceKey, environmentId)}/responses/${enc(responseId)}/tags`,
      {
        name,
      },
    ),
  );

export const useUntagResponse = (namespaceKey: string, environmentId: string) =>
  useResultsMutation(namespaceKey, environmentId, ({ responseId, tagId }: { responseId: string; tagId: string }) =>
    request<unknown>(
      'DELETE',
      `${environmentPath(namespaceKey, environmentId)}/responses/${enc(responseId)}/tags/${enc(tagId)}`,
    ),
  );

export const useAddNote = (namespaceKey: string, environmentId: string) =>
  useResultsMutation(namespaceKey, environmentId, ({ responseId, text }: { responseId: string; text: string }) =>
    request<{ data: Note }>(
      'POST',
      `${environmentPath(namespaceKey, environmentId)}/responses/${enc(responseId)}/notes`,
      { text },
    ),
  );

export const useCreateWebhook = (namespaceKey: string, environmentId: string) =>
  useResultsMutation(namespaceKey, environmentId, (input: WebhookInput) =>
    request<{ data: Webhook }>('POST', `${environmentPath(namespaceKey, environmentId)}/webhooks`, {
      ...input,
      source: 'user',
    }).then((r) => r.data),
  );

/** Delivers a paused webhook's deliveries again. */
export const useResumeWebhook = (namespaceKey: string, environmentId: string) =>
  useResultsMutation(namespaceKey, environmentId, (webhookId: string) =>
    request<unknown>('POST', `${environmentPath(namespaceKey, environmentId)}/webhooks/${enc(webhookId)}/resume`),
  );

export const useDeleteWebhook = (namespaceKey: string, environmentId: string) =>
  useResultsMutation(namespaceKey, environmentId, (webhookId: string) =>
    request<unknown>('DELETE', `${environmentPath(namespaceKey, environmentId)}/webhooks/${enc(webhookId)}`),
  );
