import type { TStorageUploadResult, TUploadFileConfig } from '../../domain/surveys/types.js';
import { req } from './request.js';

const fail = (message: string, name?: string): Error => Object.assign(new Error(message), name && { name });
const failed = (status: number): Error => fail('Upload failed with status ' + status);

/** `storage.uploadFile` of the client API under `base` (part of the survey chunk). */
export const upload = async (
  base: string,
  file: File,
  { allowedFileExtensions, surveyId }: TUploadFileConfig = {},
): Promise<string> => {
  if (!(file instanceof Blob) || !(file instanceof File))
    throw fail('Invalid file type. Expected Blob or File, but received ' + typeof file);
  const { name, type } = file;
  const r = await req<TStorageUploadResult>(base + 'storage', {
    fileName: name,
    fileType: type,
    allowedFileExtensions,
    surveyId,
  });
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
