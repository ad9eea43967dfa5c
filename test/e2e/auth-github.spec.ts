import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, freePort, startServer, test, type RunningServer } from './fixtures.js';
import { startFakeGithub, type FakeGithub } from '../server/auth/fake-github.js';

let github: FakeGithub;
let server: RunningServer;
let configDir: string;
let unusedPort: number;

test.beforeAll(async () => {
  github = await startFakeGithub({ id: 'gh-client', secret: 'gh-secret' });
  github.state.signedIn = {
    login: 'octo',
    id: 9,
    name: 'Octo Cat',
    email: 'octo@example.com',
    avatar_url: 'https://avatars.example.com/octo',
    orgs: ['ensign'],
  };
  const port = await freePort();
  unusedPort = await freePort();
  configDir = mkdtempSync(join(tmpdir(), 'ensign-github-e2e-'));
  const configFile = join(configDir, 'config.yml');
  // Two OIDC providers that are never contacted: the login page lists them next to GitHub.
  writeFileSync(
    configFile,
    `authentication:
  required: true
  session:
    domain: 127.0.0.1
  methods:
    github:
      enabled: true
      client_id: gh-client
      client_secret: gh-secret
      redirect_address: http://127.0.0.1:${port}
      server_url: ${github.base}
      api_url: ${github.base}/api
      allowed_organizations: [ensign]
    oidc:
      enabled: true
      providers:
        google:
          issuer_url: http://127.0.0.1:${unusedPort}
          client_id: a
          client_secret: b
          redirect_address: http://127.0.0.1:${port}
        keycloak:
          issuer_url: http://127.0.0.1:${unusedPort}
          client_id: a
          client_secret: b
          redirect_address: http://127.0.0.1:${port}
`,
  );
  server = await startServer(['--port', String(port), '--config', configFile]);
});

test.afterAll(async () => {
  await server?.stop();
  await github?.close();
  rmSync(configDir, { recursive: true, force: true });
});

test('the login page offers each session method; GitHub login leads to the console as the GitHub user', async ({
  page,
}) => {
  await page.goto(server.url);
  await expect(page).toHaveURL(/#\/login$/);
  const buttons = page.getByRole('main').getByRole('button');
  await expect(buttons).toHaveText(['Login with GitHub', 'Login with Google', 'Login with Keycloak']);

  await page.getByRole('button', { name: 'Login with GitHub' }).click();
  const menu = page.getByRole('button', { name: 'User menu: Octo Cat' });
  await expect(menu).toBeVisible();
  await expect(menu.locator('img')).toHaveAttribute('src', 'https://avatars.example.com/octo');
  await menu.click();
  await expect(page.getByRole('menu')).toContainText('octo');

  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  expect((await page.request.get(`${server.url}/auth/v1/self`)).status()).toBe(401);
});

test('a provider that cannot be reached is reported on the login page', async ({ page }) => {
  await page.goto(`${server.url}/#/login`);
  await page.getByRole('button', { name: 'Login with Google' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `login failed: cannot reach http://127.0.0.1:${unusedPort}/.well-known/openid-configuration (ECONNREFUSED)`,
  );
});
