import type {
  TActionInput,
  TDisplayCreateInput,
  TDisplayUpdateInput,
  TPersonCreateInput,
  TPersonUpdateInput,
  TPersonUpdateResult,
  TResponseInput,
  TResponseUpdateInput,
  TStorageUploadResult,
  TUploadFileConfig,
} from '../../domain/surveys/types.js';

export interface NetworkError {
  code: 'network_error';
  status: number;
  message: string;
  url: string;
  responseMessage?: string;
}
export type Result<T> = { ok: true; data: T } | { ok: false; error: NetworkError };

/**
 * One request to the client API: a JSON body when given (POST unless `method` says otherwise), else a
 * GET with `init`. Never throws: a network failure, a non-OK status, a body that is not JSON or has no
 * `data` wrapper all come back as a `network_error`.
 */
export const req = async <T>(url: string, body?: unknown, method = 'POST', init?: RequestInit): Promise<Result<T>> => {
  let status = 0;
  let message = '';
  try {
    const r = await fetch(url, body ? { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : init);
    status = r.status;
    message = r.statusText;
    const json = await r.json();
    if (r.ok && json?.data !== undefined) return { ok: true, data: json.data as T };
    message = json?.message || message;
  } catch (e) {
    message ||= String(e);
  }
  return { ok: false, error: { code: 'network_error', status, message, url } };
};

/** Unwraps a result, or throws the spec's `network_error` with this call's message. */
export const must = <T>(r: Result<T>, message: string): T => {
  if (r.ok) return r.data;
  throw { ...r.error, message, responseMessage: r.error.message };
};

const fail = (message: string, name?: string): Error => Object.assign(new Error(message), name && { name });
const failed = (status: number): Error => fail('Upload failed with status ' + status);

const upload = async (base: string, file: File, { allowedFileExtensions, surveyId }: TUploadFileConfig = {}): Promise<string> => {
  if (!(file instanceof Blob) || !(file instanceof File)) throw fail('Invalid file type. Expected Blob or File, but received ' + typeof file);
  const { name, type } = file;
  const r = await req<TStorageUploadResult>(base + 'storage', { fileName: name, fileType: type, allowedFileExtensions, surveyId });
  if (!r.ok) throw failed(r.error.status);
  const { signedUrl, fileUrl, signingData: s, presignedFields: p, updatedFileName } = r.data;
  const form = new FormData();
  for (const k in p) form.append(k, p[k]);
  form.append('file', file);
  const u = await fetch(signedUrl, {
    method: 'POST',
    body: form,
    headers: s
      ? {
      'X-File-Type': type,
      'X-File-Name': encodeURIComponent(updatedFileName || name),
      'X-Survey-ID': surveyId ?? '',
      'X-Signature': s.signature,
      'X-Timestamp': '' + s.timestamp,
      'X-UUID': s.uuid,
        }
      : undefined,
  });
  if (!u.ok) {
    const text = await u.text();
    let message = 'File size exceeds the size limit for your plan';
    try {
      // signed (local) uploads answer JSON with the server's message
      message = (s && JSON.parse(text).message) || message;
    } catch {
      // not JSON: the plan message
    }
    throw s || (p && text.includes('EntityTooLarge')) ? fail(message, 'FileTooLargeError') : failed(u.status);
  }
  return fileUrl;
};

/** The client API of one environment, as `getApi().client` of @formbricks/js 1.6. */
export const client = (apiHost: string, environmentId: string) => {
  const b = `${apiHost}/api/v1/client/${environmentId}/`;
  const post = <O = object>(path: string, input: unknown, method?: string) => req<O>(b + path, input, method);
  return {
    response: {
      create: (input: TResponseInput) => post<{ id: string }>('responses', input),
      update: ({ responseId, ...input }: TResponseUpdateInput & { responseId: string }) => post('responses/' + responseId, input, 'PUT'),
    },
    display: {
      create: (input: TDisplayCreateInput) => post<{ id: string }>('displays', input),
      update: (displayId: string, input: TDisplayUpdateInput) => post('displays/' + displayId, input, 'PUT'),
    },
    action: { create: (input: TActionInput) => post('actions', input) },
    people: {
      create: (userId: string) => post<{ userId: string }>('people', { environmentId, userId } satisfies TPersonCreateInput),
      update: (userId: string, input: TPersonUpdateInput) => post<TPersonUpdateResult>('people/' + userId, input),
    },
    storage: {
      uploadFile: (file: File, config?: TUploadFileConfig) => upload(b, file, config),
    },
  };
};
export type Client = ReturnType<typeof client>;
