import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpload } from '../../../server/surveys/storage.js';
import { dialects } from '../support.js';
import { CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

const SURVEY = 'clensigndemosurveyallqts';

function multipart(field: string, fileName: string, content: Buffer) {
  const boundary = '----ensign-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(dialects)('survey file storage on %s', (dialect) => {
  let t: SurveyTestApp;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
  });
  afterAll(() => t.close());

  const requestUpload = async (fileName = 'notes.txt', on = t) => {
    const { status, body } = await on.request('POST', `${CLIENT}/storage`, {
      fileName,
      fileType: 'text/plain',
      surveyId: SURVEY,
      allowedFileExtensions: ['plain'],
    });
    expect(status).toBe(200);
    return body.data as {
      signedUrl: string;
      fileUrl: string;
      updatedFileName: string;
      signingData: { signature: string; timestamp: number; uuid: string };
    };
  };

  const upload = (
    signed: Awaited<ReturnType<typeof requestUpload>>,
    content: Buffer,
    overrides: Record<string, string> = {},
    field = 'file',
    on = t,
  ) => {
    const form = multipart(field, 'notes.txt', content);
    return on.app.inject({
      method: 'POST',
      url: new URL(signed.signedUrl).pathname,
      payload: form.body,
      headers: {
        'content-type': form.contentType,
        origin: 'http://shop.example',
        'x-file-type': 'text/plain',
        'x-file-name': encodeURIComponent(signed.updatedFileName),
        'x-survey-id': SURVEY,
        'x-signature': signed.signingData.signature,
        'x-timestamp': String(signed.signingData.timestamp),
        'x-uuid': signed.signingData.uuid,
        ...overrides,
      },
    });
  };

  it('signs an upload, stores the file under the upload folder and serves it back', async () => {
    const signed = await requestUpload('release notes.txt');
    expect(signed.updatedFileName).toMatch(/^release notes--fid--[0-9a-f-]{36}\.txt$/);
    expect(signed.signedUrl).toMatch(new RegExp(`/api/v1/client/${ENV}/storage/local$`));
    expect(signed.signingData.signature).toMatch(/^[0-9a-f]{64}$/);
    const response = await upload(signed, Buffer.from('hello file'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.json()).toEqual({ data: { message: 'File uploaded successfully' } });
    expect(readFileSync(join(t.uploadDir, ENV, 'private', signed.updatedFileName), 'utf8')).toBe('hello file');

    const served = await t.app.inject({ method: 'GET', url: new URL(signed.fileUrl).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('hello file');
    expect(served.headers['content-disposition']).toContain("filename*=UTF-8''release%20notes.txt");
    expect((await t.app.inject({ method: 'GET', url: `/storage/${ENV}/private/other.txt` })).statusCode).toBe(404);
  });

  it('refuses executable files and extensions the request or the survey does not allow, at signing', async () => {
    const sign = (fileName: string, fileType: string, allowedFileExtensions?: string[]) =>
      t.request('POST', `${CLIENT}/storage`, { fileName, fileType, surveyId: SURVEY, allowedFileExtensions });
    const html = await sign('page.html', 'text/html', ['png', 'jpg', 'pdf']);
    expect(html.status).toBe(400);
    expect(html.body.message).toBe('files of type text/html (.html) cannot be uploaded');
    expect((await sign('x.js', 'text/javascript')).status).toBe(400);
    expect((await sign('logo.svg', 'image/svg+xml')).status).toBe(400);
    expect((await sign('payload.png', 'text/javascript')).status).toBe(400);
    const zip = await sign('archive.zip', 'application/zip', ['png', 'jpg', 'pdf']);
    expect(zip.status).toBe(400);
    expect(zip.body.message).toBe('.zip is not one of the allowed file extensions');
    // The demo survey's file question takes png, jpg, jpeg, pdf and plain text, whatever the request says.
    const survey = await sign('archive.zip', 'application/zip');
    expect(survey.body.message).toBe(".zip is not one of the survey's allowed file extensions");
    expect((await sign('shot.PNG', 'image/png', ['png'])).status).toBe(200);
    const noFileQuestion = await t.request('POST', `${CLIENT}/storage`, {
      fileName: 'shot.png',
      fileType: 'image/png',
      surveyId: 'clensigndemosurveyexitin',
    });
    expect(noFileQuestion.body.message).toBe('the survey has no file upload question');
  });

  it('serves an upload with its type only when the type is inert, else as application/octet-stream', async () => {
    const signed = await requestUpload('data.txt');
    expect((await upload(signed, Buffer.from('<script>alert(1)</script>'))).statusCode).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: new URL(signed.fileUrl).pathname });
    expect(served.headers['content-type']).toBe('text/plain');
    // A type declared at signing with parameters or an unknown type is served as bytes.
    const odd = await t.request('POST', `${CLIENT}/storage`, {
      fileName: 'notes.plain',
      fileType: 'application/x-unknown',
      surveyId: SURVEY,
      allowedFileExtensions: ['plain'],
    });
    expect(odd.status).toBe(200);
    const oddSigned = odd.body.data;
    expect((await upload(oddSigned, Buffer.from('bytes'), { 'x-file-type': 'application/x-unknown' })).statusCode).toBe(
      200,
    );
    const oddServed = await t.app.inject({ method: 'GET', url: new URL(oddSigned.fileUrl).pathname });
    expect(oddServed.headers['content-type']).toBe('application/octet-stream');
  });

  it('names what is missing from the upload request', async () => {
    const post = (body: object) => t.request('POST', `${CLIENT}/storage`, body);
    expect((await post({ fileName: 'a.txt', fileType: 'text/plain' })).body.message).toBe('surveyId ID is required');
    expect((await post({ surveyId: SURVEY, fileType: 'text/plain' })).body.message).toBe('fileName is required');
    expect((await post({ surveyId: SURVEY, fileName: 'a.txt' })).body.message).toBe('contentType is required');
    expect(
      (await post({ surveyId: 'cunknownsurvey0000000000', fileName: 'a.txt', fileType: 'text/plain' })).status,
    ).toBe(404);
  });

  it('keeps the file name inside the upload folder', async () => {
    const signed = await requestUpload('../../etc/passwd');
    expect(signed.updatedFileName).not.toContain('/');
    expect((await upload(signed, Buffer.from('x'))).statusCode).toBe(200);
  });

  it('cuts a long multibyte name by UTF-8 bytes, keeping its extension, so the upload is stored', async () => {
    for (const name of [`${'é'.repeat(150)}.txt`, `${'文'.repeat(250)}.txt`, `${'😀'.repeat(100)}.txt`]) {
      const signed = await requestUpload(name);
      expect(signed.updatedFileName).toMatch(/--fid--[0-9a-f-]{36}\.txt$/);
      // Room for the `.<12 hex>.part` of the upload in progress within a file name's 255 bytes.
      expect(Buffer.byteLength(signed.updatedFileName)).toBeLessThanOrEqual(255 - 18);
      expect(signed.updatedFileName).not.toContain('\uFFFD');
      const stored = await upload(signed, Buffer.from('multibyte'));
      expect(stored.statusCode).toBe(200);
      expect(readFileSync(join(t.uploadDir, ENV, 'private', signed.updatedFileName), 'utf8')).toBe('multibyte');
    }
  });

  it('refuses a forged, tampered or expired signature with 401', async () => {
    const signed = await requestUpload();
    const forged = await upload(signed, Buffer.from('x'), { 'x-signature': '0'.repeat(64) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'unauthorized', message: 'Invalid signature' });
    expect((await upload(signed, Buffer.from('x'), { 'x-file-type': 'image/png' })).statusCode).toBe(401);
    expect((await upload(signed, Buffer.from('x'), { 'x-signature': '' })).statusCode).toBe(401);

    const timestamp = Date.now() - 5 * 60 * 1000 - 1000;
    const signature = signUpload('test-signing-secret', {
      uuid: signed.signingData.uuid,
      fileName: signed.updatedFileName,
      environmentId: ENV,
      fileType: 'text/plain',
      timestamp,
    });
    const expired = await upload(signed, Buffer.from('x'), {
      'x-signature': signature,
      'x-timestamp': String(timestamp),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Signature expired');
  });

  it('answers 400 for missing headers, a missing file field and a file over 10 MB, and keeps nothing', async () => {
    const signed = await requestUpload();
    const noHeaders = await upload(signed, Buffer.from('x'), { 'x-file-type': '' });
    expect(noHeaders.statusCode).toBe(400);
    expect(noHeaders.json().details).toEqual({ 'X-File-Type': 'is required' });
    const wrongField = await upload(signed, Buffer.from('x'), {}, 'document');
    expect(wrongField.statusCode).toBe(400);
    const big = await upload(signed, Buffer.alloc(10 * 1024 * 1024 + 1, 97));
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ code: 'bad_request', message: 'File size exceeds the 10 MB limit' });
    expect(() => readFileSync(join(t.uploadDir, ENV, 'private', signed.updatedFileName))).toThrow();
    const exactly = await upload(signed, Buffer.alloc(10 * 1024 * 1024, 97));
    expect(exactly.statusCode).toBe(200);
  });

  it('keeps each environment within its upload quota: 413 once it would be exceeded, and nothing kept', async () => {
    const quoted = await startSurveyApp(dialect, (config) => {
      config.surveys.uploadQuotaBytes = 1024;
    });
    try {
      const first = await requestUpload('first.txt', quoted);
      expect((await upload(first, Buffer.alloc(700, 97), {}, 'file', quoted)).statusCode).toBe(200);
      const second = await requestUpload('second.txt', quoted);
      const over = await upload(second, Buffer.alloc(400, 97), {}, 'file', quoted);
      expect(over.statusCode).toBe(413);
      expect(over.json()).toMatchObject({
        code: 'payload_too_large',
        message: "This environment's uploads would exceed its quota of 1024 bytes",
      });
      expect(() => readFileSync(join(quoted.uploadDir, ENV, 'private', second.updatedFileName))).toThrow();
      // What still fits is taken; then the quota is used up and even a small file is refused.
      expect((await upload(second, Buffer.alloc(324, 97), {}, 'file', quoted)).statusCode).toBe(200);
      const third = await requestUpload('third.txt', quoted);
      expect((await upload(third, Buffer.alloc(1, 97), {}, 'file', quoted)).statusCode).toBe(413);
    } finally {
      await quoted.close();
    }
  });
});
