import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { client } from '../../../../widget/core/api.js';
import { darkMode } from '../../../../widget/core/dark.js';
import { BASE, ENV, HOST, fakeApi, json, useSourceChunk } from './helpers.js';

const file = () => new File(['hello'], 'notes.txt', { type: 'text/plain' });
const upload = (f: unknown, config?: { allowedFileExtensions?: string[]; surveyId?: string }) =>
  client(HOST, ENV).storage.uploadFile(f as File, config);

// the upload itself is part of the survey chunk
beforeEach(useSourceChunk);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('file upload', () => {
  it('rejects anything that is not a File', async () => {
    await expect(upload(new Blob(['x']))).rejects.toThrow(
      'Invalid file type. Expected Blob or File, but received object',
    );
    await expect(upload('x')).rejects.toThrow('Invalid file type. Expected Blob or File, but received string');
  });

  it('signed upload: POST storage, then the file as multipart to the signed URL with the signing headers', async () => {
    const api = fakeApi({}, (c) =>
      c.url === `${BASE}/storage`
        ? json({
            data: {
              signedUrl: `${BASE}/storage/local`,
              fileUrl: `/storage/${ENV}/private/notes--fid--1.txt`,
              signingData: { signature: 'sig', timestamp: 1700000000000, uuid: 'u-1' },
              updatedFileName: 'notes--fid--1.txt',
            },
          })
        : undefined,
    );
    await expect(upload(file(), { allowedFileExtensions: ['txt'], surveyId: 'cs' })).resolves.toBe(
      `/storage/${ENV}/private/notes--fid--1.txt`,
    );
    expect(api.calls[0]).toMatchObject({
      method: 'POST',
      url: `${BASE}/storage`,
      body: { fileName: 'notes.txt', fileType: 'text/plain', allowedFileExtensions: ['txt'], surveyId: 'cs' },
    });
    expect(api.calls[1]).toMatchObject({
      method: 'POST',
      url: `${BASE}/storage/local`,
      headers: {
        'X-File-Type': 'text/plain',
        'X-File-Name': 'notes--fid--1.txt',
        'X-Survey-ID': 'cs',
        'X-Signature': 'sig',
        'X-Timestamp': '1700000000000',
        'X-UUID': 'u-1',
      },
    });
    const form = api.calls[1].body as FormData;
    expect((form.get('file') as File).name).toBe('notes.txt');
  });

  it('presigned upload: the presigned fields go first in the form, no signing headers', async () => {
    const api = fakeApi({}, (c) =>
      c.url === `${BASE}/storage`
        ? json({
            data: {
              signedUrl: 'https://bucket.test/',
              fileUrl: 'https://files.test/notes.txt',
              presignedFields: { key: 'k', Policy: 'p' },
            },
          })
        : c.url === 'https://bucket.test/'
          ? new Response(null, { status: 204 })
          : undefined,
    );
    await expect(upload(file())).resolves.toBe('https://files.test/notes.txt');
    expect(api.calls[1].headers).toBeUndefined();
    expect([...(api.calls[1].body as FormData).keys()]).toEqual(['key', 'Policy', 'file']);
  });

  it('Upload failed with status {n}', async () => {
    fakeApi({}, () => json({ message: 'x' }, 500));
    await expect(upload(file(), { surveyId: 'cs' })).rejects.toThrow('Upload failed with status 500');
    fakeApi({}, (c) =>
      c.url === `${BASE}/storage`
        ? json({ data: { signedUrl: 'https://bucket.test/', fileUrl: 'f', presignedFields: { key: 'k' } } })
        : new Response('AccessDenied', { status: 403 }),
    );
    await expect(upload(file())).rejects.toThrow('Upload failed with status 403');
  });

  it('FileTooLargeError: the server message on signed upload, the plan message for EntityTooLarge', async () => {
    fakeApi({}, (c) =>
      c.url === `${BASE}/storage`
        ? json({
            data: {
              signedUrl: `${BASE}/storage/local`,
              fileUrl: 'f',
              signingData: { signature: 's', timestamp: 1, uuid: 'u' },
              updatedFileName: 'n',
            },
          })
        : json({ message: 'File size exceeds the 10 MB limit' }, 400),
    );
    await expect(upload(file())).rejects.toMatchObject({
      name: 'FileTooLargeError',
      message: 'File size exceeds the 10 MB limit',
    });
    fakeApi({}, (c) =>
      c.url === `${BASE}/storage`
        ? json({ data: { signedUrl: 'https://bucket.test/', fileUrl: 'f', presignedFields: { key: 'k' } } })
        : new Response('<Error><Code>EntityTooLarge</Code></Error>', { status: 400 }),
    );
    await expect(upload(file())).rejects.toMatchObject({
      name: 'FileTooLargeError',
      message: 'File size exceeds the size limit for your plan',
    });
  });
});

describe('dark mode (nightwind-mode)', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.classList.remove('dark');
  });

  it('stores the chosen mode and sets the dark class', () => {
    expect(darkMode('dark')).toBe('dark');
    expect(localStorage.getItem('nightwind-mode')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(darkMode('light')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('restores the stored mode, else follows the system preference', () => {
    localStorage.setItem('nightwind-mode', 'dark');
    expect(darkMode()).toBe('dark');
    localStorage.clear();
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(prefers-color-scheme: dark)' }));
    expect(darkMode()).toBe('dark');
    expect(localStorage.getItem('nightwind-mode')).toBe('dark');
  });
});
