import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import * as v from 'valibot';
import { SurveyApiError, badRequest, notFound, unauthorized } from './errors.js';
import type { SurveyStore } from './store/index.js';
import { environmentOfPath, environmentParams, surveyOf } from './client-environment.js';
import { RouteTable, addRoutes, route } from '../route-definitions.js';
import { cuidString, parseInput } from './validation.js';
import { servedType, uploadRefusal } from './upload-rules.js';

/** Formbricks' free-plan limit for one uploaded file. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** How long a signed upload stays valid. */
export const SIGNATURE_TTL_MS = 5 * 60 * 1000;

const uploadRequestBody = v.object({
  surveyId: v.optional(cuidString),
  fileName: v.optional(v.string('must be a string')),
  fileType: v.optional(v.string('must be a string')),
  allowedFileExtensions: v.optional(v.array(v.string())),
});

export interface StorageOptions {
  uploadDir: string;
  /** Key of the upload signatures; when the config has none, a random one for this process. */
  signingSecret?: string;
  /** What one environment's uploads may take in all, in bytes; 0 is no quota. */
  uploadQuotaBytes: number;
}

const quotaExceeded = (quota: number) =>
  new SurveyApiError(
    413,
    'payload_too_large',
    `This environment's uploads would exceed its quota of ${quota % (1024 * 1024) === 0 ? `${quota / 1024 / 1024} MB` : `${quota} bytes`}`,
  );

export function signUpload(
  secret: string,
  parts: { uuid: string; fileName: string; environmentId: string; fileType: string; timestamp: number },
): string {
  const { uuid, fileName, environmentId, fileType, timestamp } = parts;
  return createHmac('sha256', secret)
    .update(`${uuid}:${fileName}:${environmentId}:${fileType}:${timestamp}`)
    .digest('hex');
}

/**
 * What a stored name's stem and extension may take, in UTF-8 bytes: with its `--fid--` and UUID (43
 * bytes) and the temporary `.<12 hex>.part` of an upload in progress (18) it stays within a file name's 255.
 */
const MAX_NAME_BYTES = 180;
const MAX_EXTENSION_BYTES = 32;

/**
 * Keeps the original name readable but unable to leave the upload folder or break a header; cut to
 * `MAX_NAME_BYTES` by UTF-8 bytes, the stem only, so the extension the upload was signed for stays.
 */
function safeFileName(name: string): { stem: string; extension: string } {
  const safe = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is replaced
    .replace(/[\\/\u0000-\u001f\u007f]/g, '_')
    .replace(/^\.+/, '_');
  const dot = safe.lastIndexOf('.');
  const extension = dot > 0 ? safe.slice(dot) : '';
  if (extension === '' || Buffer.byteLength(extension) > MAX_EXTENSION_BYTES)
    return { stem: utf8Prefix(safe, MAX_NAME_BYTES), extension: '' };
  return { stem: utf8Prefix(safe.slice(0, dot), MAX_NAME_BYTES - Buffer.byteLength(extension)), extension };
}

/** The longest prefix of whole characters that takes at most `bytes` bytes in UTF-8. */
function utf8Prefix(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    used += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (used > bytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * Local file storage: POST /storage hands out a signed upload for the local route,
 * POST /storage/local checks the signature and its age and writes the file under the upload folder
 * (`fileRoutes` serves it back). Registered under /api/v1/client.
 */
export async function storageRoutes(app: FastifyInstance, store: SurveyStore, options: StorageOptions) {
  const secret = options.signingSecret ?? randomBytes(32).toString('hex');
  addRoutes(new RouteTable(app, parseInput), [signingRoute(store, secret)]);
  await app.register(async (upload) => {
    await upload.register(fastifyMultipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, parts: 21 },
    });
    addRoutes(new RouteTable(upload, parseInput), [uploadRoute(store, secret, options)]);
  });
}

/** POST /storage: a signed upload of a file for a survey's file question. */
function signingRoute(store: SurveyStore, secret: string) {
  return route({
    method: 'POST',
    url: '/:environmentId/storage',
    params: environmentParams,
    load: environmentOfPath(store),
    body: uploadRequestBody,
    handler: async ({ loaded: environment, body }, request) => {
      if (!body.surveyId) throw badRequest('surveyId ID is required', { surveyId: 'is required' });
      if (!body.fileName) throw badRequest('fileName is required', { fileName: 'is required' });
      if (!body.fileType) throw badRequest('contentType is required', { fileType: 'is required' });
      const survey = await surveyOf(store, environment, body.surveyId);
      const refusal = uploadRefusal(
        survey,
        { fileName: body.fileName, fileType: body.fileType },
        body.allowedFileExtensions,
      );
      if (refusal) throw badRequest(refusal, { fileName: refusal });

      const { stem, extension } = safeFileName(body.fileName);
      const updatedFileName = `${stem}--fid--${randomUUID()}${extension}`;
      const uuid = randomBytes(16).toString('hex');
      const timestamp = Date.now();
      const signature = signUpload(secret, {
        uuid,
        fileName: updatedFileName,
        environmentId: environment.id,
        fileType: body.fileType,
        timestamp,
      });
      const origin = `${request.protocol}://${request.host}`;
      return {
        data: {
          signedUrl: `${origin}/api/v1/client/${environment.id}/storage/local`,
          signingData: { signature, timestamp, uuid },
          // Today's renderer posts these as form fields before the file, rather than as headers.
          presignedFields: {
            'X-File-Name': encodeURIComponent(updatedFileName),
            'X-File-Type': body.fileType,
            'X-Survey-ID': survey.id,
            'X-Signature': signature,
            'X-UUID': uuid,
            'X-Timestamp': String(timestamp),
          },
          updatedFileName,
          fileUrl: `${origin}/storage/${environment.id}/private/${encodeURIComponent(updatedFileName)}`,
        },
      };
    },
  });
}

/** POST /storage/local: the signed upload itself, within the environment's quota. */
function uploadRoute(store: SurveyStore, secret: string, options: StorageOptions) {
  return route({
    method: 'POST',
    url: '/:environmentId/storage/local',
    params: environmentParams,
    load: environmentOfPath(store),
    handler: async ({ loaded: environment }, request) => {
      // The 1.6 client sends the signing data as headers; today's renderer as form fields before the file.
      const asFields = request.headers['x-signature'] === undefined && request.isMultipart();
      const early = asFields ? await request.file({ throwFileSizeLimit: false }) : undefined;
      const header = (name: string) => {
        const key = early && Object.keys(early.fields).find((candidate) => candidate.toLowerCase() === name);
        const field = key === undefined ? undefined : early!.fields[key];
        const value =
          request.headers[name] ?? (field && !Array.isArray(field) && field.type === 'field' ? field.value : undefined);
        return typeof value === 'string' && value !== '' ? value : undefined;
      };
      const fileType = header('x-file-type');
      const encodedName = header('x-file-name');
      const surveyId = header('x-survey-id');
      if (!fileType || !encodedName || !surveyId) {
        throw badRequest('X-File-Type, X-File-Name and X-Survey-ID headers are required', {
          ...(fileType ? {} : { 'X-File-Type': 'is required' }),
          ...(encodedName ? {} : { 'X-File-Name': 'is required' }),
          ...(surveyId ? {} : { 'X-Survey-ID': 'is required' }),
        });
      }
      const signature = header('x-signature');
      const uuid = header('x-uuid');
      const timestamp = Number(header('x-timestamp'));
      if (!signature || !uuid || !Number.isFinite(timestamp))
        throw unauthorized('X-Signature, X-UUID and X-Timestamp headers are required');
      const survey = await surveyOf(
        store,
        environment,
        parseInput(v.object({ 'X-Survey-ID': cuidString }), { 'X-Survey-ID': surveyId })['X-Survey-ID'],
      );

      let fileName: string;
      try {
        fileName = decodeURIComponent(encodedName);
      } catch {
        throw badRequest('X-File-Name is not a valid URI component');
      }
      const expected = Buffer.from(
        signUpload(secret, { uuid, fileName, environmentId: environment.id, fileType, timestamp }),
      );
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given))
        throw unauthorized('Invalid signature');
      if (Date.now() - timestamp > SIGNATURE_TTL_MS) throw unauthorized('Signature expired');
      // The signature covers the name, and only names from safeFileName are ever signed. The survey may
      // have changed since the signing: its file questions are checked again.
      const refusal = uploadRefusal(survey, { fileName, fileType });
      if (refusal) throw badRequest(refusal, { 'X-File-Name': refusal });

      const quota = options.uploadQuotaBytes;
      const used = quota > 0 ? await store.uploadedBytes(environment.id) : 0;
      if (quota > 0 && used >= quota) throw quotaExceeded(quota);
      if (!request.isMultipart()) throw badRequest('The upload must be multipart/form-data with a "file" field');
      const part = early ?? (await request.file({ throwFileSizeLimit: false }));
      if (part?.fieldname !== 'file') throw badRequest('The "file" field is missing', { file: 'is required' });

      const folder = join(options.uploadDir, environment.id, 'private');
      await mkdir(folder, { recursive: true });
      const target = join(folder, fileName);
      const partial = `${target}.${randomBytes(6).toString('hex')}.part`;
      try {
        await pipeline(part.file, createWriteStream(partial));
        if (part.file.truncated) throw badRequest(`File size exceeds the ${MAX_UPLOAD_BYTES / 1024 / 1024} MB limit`);
        if (quota > 0 && used + (await stat(partial)).size > quota) throw quotaExceeded(quota);
        await rename(partial, target);
      } finally {
        await rm(partial, { force: true });
      }
      const { size } = await stat(target);
      await store.recordFile({ environmentId: environment.id, surveyId, fileName, fileType, size });
      return { data: { message: 'File uploaded successfully' } };
    },
  });
}

const filePath = v.object({ environmentId: v.string(), access: v.string(), fileName: v.string() });

/** GET /storage/{env}/{public|private}/{file}: files recorded by an upload, as attachments. */
export function fileRoutes(store: SurveyStore, uploadDir: string) {
  return [
    route({
      method: 'GET',
      url: '/:environmentId/:access/:fileName',
      params: filePath,
      handler: async ({ params: { environmentId, access, fileName } }, _request, reply) => {
        if (access !== 'private' && access !== 'public') throw notFound('File', fileName);
        const file = await store.file(environmentId, fileName);
        if (!file) throw notFound('File', fileName);
        const path = join(uploadDir, environmentId, 'private', file.file_name);
        await stat(path).catch(() => {
          throw notFound('File', fileName);
        });
        reply
          .header('content-type', servedType(file.file_type))
          .header(
            'content-disposition',
            `attachment; filename*=UTF-8''${encodeURIComponent(file.file_name.replace(/--fid--[^.]*/, ''))}`,
          )
          .header('x-content-type-options', 'nosniff')
          .header('content-length', String(file.size));
        return reply.send(createReadStream(path));
      },
    }),
  ];
}
