import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dialect } from '../../../server/db/index.js';
import { startTestApp, type TestApp } from '../support.js';

export const ENV = 'clensigndemoenvironment0';
export const API_KEY = 'ensign-demo-api-key-0000';
export const CLIENT = `/api/v1/client/${ENV}`;

export interface SurveyTestApp extends TestApp {
  uploadDir: string;
  request(
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  management(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** The app with the demo environment, uploads in a temporary folder and a fixed signing secret. */
export async function startSurveyApp(
  dialect: Dialect,
  configure?: (config: TestApp['config']) => void,
): Promise<SurveyTestApp> {
  const uploadDir = mkdtempSync(join(tmpdir(), 'ensign-uploads-'));
  const test = await startTestApp(dialect, (config) => {
    config.surveys.uploadDir = uploadDir;
    config.surveys.signingSecret = 'test-signing-secret';
    configure?.(config);
  });
  const request: SurveyTestApp['request'] = async (method, url, body, headers = {}) => {
    const response = await test.app.inject({
      method: method as 'GET',
      url,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    let parsed: unknown = response.body;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      // not JSON: the test looks at the text
    }
    return { status: response.statusCode, body: parsed, headers: response.headers };
  };
  return {
    ...test,
    uploadDir,
    request,
    management: (method, path, body) => request(method, `/api/v1/management${path}`, body, { 'x-api-key': API_KEY }),
    close: async () => {
      await test.close();
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}
