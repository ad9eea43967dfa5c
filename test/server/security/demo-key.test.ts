import { afterEach, describe, expect, it } from 'vitest';
import { startupSummary } from '../../../server/logging.js';
import { DEMO_API_KEY, DEMO_ENVIRONMENT_ID } from '../../../server/surveys/demo.js';
import { dialects, startTestApp, type TestApp } from '../support.js';

const REQUIRED = { required: true, methods: { token: { enabled: true, bootstrap: { token: 'demo-key-tests' } } } };

/** The demo environment's management key is printed in the docs: it must open nothing where logins are required. */
describe.each(dialects)('the well-known demo key on %s', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const management = () =>
    t!.app.inject({ method: 'GET', url: '/api/v1/management/me', headers: { 'x-api-key': DEMO_API_KEY } });
  const sync = () => t!.app.inject({ method: 'GET', url: `/api/v1/client/${DEMO_ENVIRONMENT_ID}/in-app/sync` });

  it('opens the demo environment on a server without authentication', async () => {
    t = await startTestApp(dialect);
    expect((await sync()).statusCode).toBe(200);
    expect((await management()).statusCode).toBe(200);
    expect(startupSummary(t.config, '0', 'http://x').demo).toBe('http://x/demo/');
  });

  it('is off by default when authentication is required, and the start says so', async () => {
    t = await startTestApp(dialect, (config) => {
      config.authentication = REQUIRED;
    });
    expect((await sync()).statusCode).toBe(404);
    expect((await management()).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/demo' })).statusCode).toBe(404);
    expect(startupSummary(t.config, '0', 'http://x').demo).toBe(
      'off: authentication is required (surveys.demo: true turns it on)',
    );
  });

  it('serves the demo environment when asked, but never takes its key while authentication is required', async () => {
    t = await startTestApp(dialect, (config) => {
      config.authentication = REQUIRED;
      config.surveys.demo = true;
    });
    expect((await sync()).statusCode).toBe(200);
    const refused = await management();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'not_authenticated' });
  });
});
