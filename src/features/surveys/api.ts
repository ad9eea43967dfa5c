import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Estimate } from '../../../domain/surveys/by-variant';
import type { ActionClassInput, ProductSettings } from '../../../domain/surveys/schema';
import type { SummaryMeta } from '../../../domain/surveys/summary';
import type { TActionClass, TEnvironment, TSurvey } from '../../../domain/surveys/types';
import { API, request } from '../../api/client';
import { useCurrentRef } from '../../api/currentRef';
import { useInvalidatingMutation } from '../../api/mutation';

/** A survey environment as the console API answers it (server/surveys/console.ts). */
export interface SurveyEnvironment extends TEnvironment {
  namespaceKey: string;
  product: { id: string; name: string } & ProductSettings;
  /** The SDK generations whose widgets have synced with it, in the order first seen (`1.6`, `5`, `current`). */
  sdkGenerations?: string[];
}
export interface SurveySummary extends TSurvey {
  displayCount: number;
  responseCount: number;
}
export interface ActionClassUsage extends TActionClass {
  surveys: { id: string; name: string }[];
  lastFiredAt: string | null;
}
export interface ApiKey {
  id: string;
  label: string;
  prefix: string;
  createdAt: string;
}
export interface VariantResults {
  value: string;
  linked: boolean;
  meta: SummaryMeta;
  scores: { questionId: string; headline: string; type: 'nps' | 'rating'; estimate: Estimate }[];
}
/** What a survey write sends: the survey without the keys the server owns. */
export type SurveyDraft = Omit<TSurvey, 'id' | 'createdAt' | 'updatedAt' | 'environmentId'>;

const enc = encodeURIComponent;
const environmentsPath = (namespaceKey: string) => `${API}/namespaces/${enc(namespaceKey)}/surveys/environments`;
const environmentPath = (namespaceKey: string, environmentId: string) =>
  `${environmentsPath(namespaceKey)}/${enc(environmentId)}`;

/**
 * Query keys: everything of a namespace's surveys under one prefix, so one invalidation refreshes it all.
 * Surveys live in the server's database, not in the flag storage: they are the same at every git ref,
 * so their keys carry none.
 */
export const surveyKeys = {
  namespace: (namespaceKey: string) => ['surveys', namespaceKey] as const,
  environments: (namespaceKey: string) => [...surveyKeys.namespace(namespaceKey), 'environments'] as const,
  environment: (namespaceKey: string, environmentId: string) =>
    [...surveyKeys.namespace(namespaceKey), 'environment', environmentId] as const,
};

export const environmentsQuery = (namespaceKey: string) =>
  queryOptions({
    queryKey: surveyKeys.environments(namespaceKey),
    queryFn: () =>
      request<{ environments: SurveyEnvironment[] }>('GET', environmentsPath(namespaceKey)).then((r) => r.environments),
  });

export const surveysQuery = (namespaceKey: string, environmentId: string) =>
  queryOptions({
    queryKey: [...surveyKeys.environment(namespaceKey, environmentId), 'surveys'],
    queryFn: () =>
      request<{ surveys: SurveySummary[] }>('GET', `${environmentPath(namespaceKey, environmentId)}/surveys`).then(
        (r) => r.surveys,
      ),
  });

export const surveyQuery = (namespaceKey: string, environmentId: string, surveyId: string) =>
  queryOptions({
    queryKey: [...surveyKeys.environment(namespaceKey, environmentId), 'survey', surveyId],
    queryFn: () => request<TSurvey>('GET', `${environmentPath(namespaceKey, environmentId)}/surveys/${enc(surveyId)}`),
  });

export const actionClassesQuery = (namespaceKey: string, environmentId: string) =>
  queryOptions({
    queryKey: [...surveyKeys.environment(namespaceKey, environmentId), 'action-classes'],
    queryFn: () =>
      request<{ actionClasses: ActionClassUsage[] }>(
        'GET',
        `${environmentPath(namespaceKey, environmentId)}/action-classes`,
      ).then((r) => r.actionClasses),
  });

export const apiKeysQuery = (namespaceKey: string, environmentId: string) =>
  queryOptions({
    queryKey: [...surveyKeys.environment(namespaceKey, environmentId), 'api-keys'],
    queryFn: () =>
      request<{ apiKeys: ApiKey[] }>('GET', `${environmentPath(namespaceKey, environmentId)}/api-keys`).then(
        (r) => r.apiKeys,
      ),
  });

/** The namespace's surveys that link a flag, in every environment (the flag page's Feedback tab). */
export const linkedSurveysQuery = (namespaceKey: string, flagKey: string) =>
  queryOptions({
    queryKey: [...surveyKeys.namespace(namespaceKey), 'linked', flagKey],
    queryFn: () =>
      request<{ surveys: { environment: Pick<TEnvironment, 'id' | 'type'>; survey: SurveySummary }[] }>(
        'GET',
        `${API}/namespaces/${enc(namespaceKey)}/surveys/linked/${enc(flagKey)}`,
      ).then((r) => r.surveys),
  });

/** A linked survey's results per value of its flag (server/surveys/by-variant.ts). */
export const byVariantQuery = (namespaceKey: string, environmentId: string, surveyId: string) =>
  queryOptions({
    queryKey: [...surveyKeys.environment(namespaceKey, environmentId), 'by-variant', surveyId],
    queryFn: () =>
      request<{ data: { flagKey: string; values: VariantResults[] } }>(
        'GET',
        `${environmentPath(namespaceKey, environmentId)}/surveys/${enc(surveyId)}/results/by-variant`,
      ).then((r) => r.data),
  });

/**
 * A flag or segment of the namespace, looked up by key as the operator types it (a survey's targeting);
 * nothing is asked while the key is empty.
 */
export function useNamespaceEntity<T>(kind: 'flags' | 'segments', namespaceKey: string, key: string) {
  return useQuery({
    queryKey: [useCurrentRef(), kind, 'lookup', namespaceKey, key],
    queryFn: () => request<T>('GET', `${API}/namespaces/${enc(namespaceKey)}/${kind}/${enc(key)}`),
    enabled: key !== '',
    retry: false,
  });
}

/** A mutation of the namespace's surveys; on success everything of the namespace's surveys is fetched again. */
const useSurveyMutation = <I, O>(namespaceKey: string, mutationFn: (input: I) => Promise<O>) =>
  useInvalidatingMutation(mutationFn, () => [surveyKeys.namespace(namespaceKey)]);

export const useCreateEnvironments = (namespaceKey: string) =>
  useSurveyMutation(namespaceKey, () => request<unknown>('POST', environmentsPath(namespaceKey), {}));

export const useSaveProduct = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, (product: { name: string } & ProductSettings) =>
    request<unknown>('PUT', `${environmentPath(namespaceKey, environmentId)}/product`, product),
  );

export const useCreateApiKey = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, (label: string) =>
    request<ApiKey & { apiKey: string }>('POST', `${environmentPath(namespaceKey, environmentId)}/api-keys`, {
      label,
    }),
  );

export const useRevokeApiKey = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, (id: string) =>
    request<unknown>('DELETE', `${environmentPath(namespaceKey, environmentId)}/api-keys/${enc(id)}`),
  );

export const useCreateSurvey = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, (survey: SurveyDraft) =>
    request<TSurvey>('POST', `${environmentPath(namespaceKey, environmentId)}/surveys`, survey),
  );

export const useSaveSurvey = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, ({ id, survey }: { id: string; survey: SurveyDraft }) =>
    request<TSurvey>('PUT', `${environmentPath(namespaceKey, environmentId)}/surveys/${enc(id)}`, survey),
  );

export const useDeleteSurvey = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, (id: string) =>
    request<unknown>('DELETE', `${environmentPath(namespaceKey, environmentId)}/surveys/${enc(id)}`),
  );

export const useCopySurvey = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, ({ id, to }: { id: string; to: string }) =>
    request<TSurvey>('POST', `${environmentPath(namespaceKey, environmentId)}/surveys/${enc(id)}/copy`, {
      environmentId: to,
    }),
  );

export const useCreateActionClass = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, (input: Omit<ActionClassInput, 'type'> & { type: 'code' | 'noCode' }) =>
    request<TActionClass>('POST', `${environmentPath(namespaceKey, environmentId)}/action-classes`, input),
  );

export const useUpdateActionClass = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(
    namespaceKey,
    ({ id, input }: { id: string; input: Omit<ActionClassInput, 'type'> & { type: 'code' | 'noCode' } }) =>
      request<TActionClass>('PUT', `${environmentPath(namespaceKey, environmentId)}/action-classes/${enc(id)}`, input),
  );

export const useDeleteActionClass = (namespaceKey: string, environmentId: string) =>
  useSurveyMutation(namespaceKey, (id: string) =>
    request<unknown>('DELETE', `${environmentPath(namespaceKey, environmentId)}/action-classes/${enc(id)}`),
  );

/** Console paths of the survey pages (the route table in app/routes.ts uses the same shapes). */
export const surveyPaths = {
  list: (environmentId?: string) => (environmentId ? `/surveys/${enc(environmentId)}` : '/surveys'),
  environment: (environmentId: string) => `/surveys/${enc(environmentId)}/environment`,
  actions: (environmentId: string) => `/surveys/${enc(environmentId)}/actions`,
  edit: (environmentId: string, surveyId: string) => `/surveys/${enc(environmentId)}/edit/${enc(surveyId)}`,
};
