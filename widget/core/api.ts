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
 * One request to the client API. Never throws: a network failure, a non-OK status, a body that is not
 * JSON or has no `data` wrapper all come back as a `network_error`.
 */
export const req = async <T>(url: string, method = 'GET', body?: unknown, init?: RequestInit): Promise<Result<T>> => {
  let status = 0;
  let message = '';
  try {
    const r = await fetch(
      url,
      body === undefined ? init : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    );
    status = r.status;
    message = r.statusText;
    const json = await r.json();
    if (r.ok && json && typeof json === 'object' && 'data' in json) return { ok: true, data: json.data as T };
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

const tooLarge = (message?: string): Error =>
  Object.assign(new Error(message || 'File size exceeds the size limit for your plan'), { name: 'FileTooLargeError' });
const failed = (status: number): Error => new Error(`Upload failed with status ${status}`);

const upload = async (base: string, file: File, { allowedFileExtensions, surveyId }: TUploadFileConfig = {}): Promise<string> => {
  if (!(file instanceof Blob) || !(file instanceof File)) {
    throw new Error(`Invalid file type. Expected Blob or File, but received ${typeof file}`);
  }
  const r = await fetch(`${base}/storage`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ fileName: file.name, fileType: file.type, allowedFileExtensions, surveyId }),
  });
  if (!r.ok) throw failed(r.status);
  const { signedUrl, fileUrl, signingData: s, presignedFields: p, updatedFileName } = (await r.json()).data as TStorageUploadResult;
  const form = new FormData();
  for (const k in p) form.append(k, p[k]);
  form.append('file', file);
  const u = await fetch(signedUrl, {
    method: 'POST',
    body: form,
    headers: s
      ? {
          'X-File-Type': file.type,
          'X-File-Name': encodeURIComponent(updatedFileName || file.name),
          'X-Survey-ID': surveyId ?? '',
          'X-Signature': s.signature,
          'X-Timestamp': String(s.timestamp),
          'X-UUID': s.uuid,
        }
      : undefined,
  });
  if (!u.ok) {
    const text = await u.text();
    let message;
    try {
      // signed (local) uploads answer JSON with the server's message
      message = s && JSON.parse(text).message;
    } catch {
      // not JSON: the plan message
    }
    throw s || (p && text.includes('EntityTooLarge')) ? tooLarge(message) : failed(u.status);
  }
  return fileUrl;
};

/** The client API of one environment, as `getApi().client` of @formbricks/js 1.6. */
export const client = (apiHost: string, environmentId: string) => {
  const b = `${apiHost}/api/v1/client/${environmentId}`;
  const post =
    <I, O = object>(path: string, method = 'POST') =>
    (input: I) =>
      req<O>(b + path, method, input);
  return {
    response: {
      create: post<TResponseInput, { id: string }>('/responses'),
      update: ({ responseId, ...input }: TResponseUpdateInput & { responseId: string }) => post<TResponseUpdateInput>(`/responses/${responseId}`, 'PUT')(input),
    },
    display: {
      create: post<TDisplayCreateInput, { id: string }>('/displays'),
      update: (displayId: string, input: TDisplayUpdateInput) => post<TDisplayUpdateInput>(`/displays/${displayId}`, 'PUT')(input),
    },
    action: { create: post<TActionInput>('/actions') },
    people: {
      create: (userId: string) => post<TPersonCreateInput, { userId: string }>('/people')({ environmentId, userId }),
      update: (userId: string, input: TPersonUpdateInput) => post<TPersonUpdateInput, TPersonUpdateResult>(`/people/${userId}`)(input),
    },
    storage: {
      uploadFile: (file: File, config?: TUploadFileConfig) => upload(b, file, config),
    },
  };
};
export type Client = ReturnType<typeof client>;
