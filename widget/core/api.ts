import type {
  TActionInput,
  TDisplayCreateInput,
  TDisplayUpdateInput,
  TPersonCreateInput,
  TPersonUpdateInput,
  TPersonUpdateResult,
  TResponseInput,
  TResponseUpdateInput,
  TUploadFileConfig,
} from '../../domain/surveys/types.js';
import { CHUNK_FAILED, surveyChunk } from './chunk.js';
import { raise } from './log.js';
import { req } from './request.js';

/** The client API of one environment, as `getApi().client` of @formbricks/js 1.6. */
export const client = (apiHost: string, environmentId: string) => {
  const b = `${apiHost}/api/v1/client/${environmentId}/`;
  const post = <O = object>(path: string, input: unknown, method?: string) => req<O>(b + path, input, method);
  return {
    response: {
      create: (input: TResponseInput) => post<{ id: string }>('responses', input),
      update: ({ responseId, ...input }: TResponseUpdateInput & { responseId: string }) =>
        post('responses/' + responseId, input, 'PUT'),
    },
    display: {
      create: (input: TDisplayCreateInput) => post<{ id: string }>('displays', input),
      update: (displayId: string, input: TDisplayUpdateInput) => post('displays/' + displayId, input, 'PUT'),
    },
    action: { create: (input: TActionInput) => post('actions', input) },
    people: {
      create: (userId: string) =>
        post<{ userId: string }>('people', { environmentId, userId } satisfies TPersonCreateInput),
      update: (userId: string, input: TPersonUpdateInput) => post<TPersonUpdateResult>('people/' + userId, input),
    },
    storage: {
      // upload.ts is in the survey chunk
      uploadFile: async (file: File, config?: TUploadFileConfig): Promise<string> =>
        ((await surveyChunk(apiHost)) || raise(CHUNK_FAILED)).upload(b, file, config),
    },
  };
};
export type Client = ReturnType<typeof client>;
