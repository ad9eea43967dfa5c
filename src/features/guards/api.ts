/**
 * The guards feature's API: a flag's feedback guards (`/api/v1/namespaces/{namespaceKey}/flags/{flagKey}/guards`),
 * read while the Feedback tab is open (a guard's verdict moves with every answer), created and deleted.
 */
import { queryOptions } from '@tanstack/react-query';
import type { Guard, GuardSettingsInput } from '../../../domain/guards/guard';
import { API, request } from '../../api/client';
import { useInvalidatingMutation } from '../../api/mutation';

const enc = encodeURIComponent;
const guardsPath = (namespaceKey: string, flagKey: string) =>
  `${API}/namespaces/${enc(namespaceKey)}/flags/${enc(flagKey)}/guards`;

/** How often an open Feedback tab reads the guards again: a trip shows within this. */
const REFRESH_MS = 2000;

export const guardKeys = {
  flag: (ref: string, namespaceKey: string, flagKey: string) => [ref, 'guards', namespaceKey, flagKey] as const,
};

export const guardsQuery = (ref: string, namespaceKey: string, flagKey: string) =>
  queryOptions({
    queryKey: guardKeys.flag(ref, namespaceKey, flagKey),
    queryFn: () => request<{ guards: Guard[] }>('GET', guardsPath(namespaceKey, flagKey)).then((list) => list.guards),
    refetchInterval: REFRESH_MS,
  });

export const useCreateGuard = (namespaceKey: string, flagKey: string) =>
  useInvalidatingMutation(
    (settings: GuardSettingsInput) => request<Guard>('POST', guardsPath(namespaceKey, flagKey), settings),
    (ref) => [guardKeys.flag(ref, namespaceKey, flagKey)],
  );

export const useDeleteGuard = (namespaceKey: string, flagKey: string) =>
  useInvalidatingMutation(
    (id: string) => request<void>('DELETE', `${guardsPath(namespaceKey, flagKey)}/${enc(id)}`),
    (ref) => [guardKeys.flag(ref, namespaceKey, flagKey)],
  );
