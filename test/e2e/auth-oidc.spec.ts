import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, freePort, startServer, test, type RunningServer } from './fixtures.js';
import { startOidcProvider, type LocalOidcProvider } from '../server/auth/oidc-provider.js';

const BOOTSTRAP = 'e2e-bootstrap-token';

let idp: LocalOidcProvider;
let server: RunningServer;
let configDir: string;

test.beforeAll(async () => {
  const port = await freePort();
  const console = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider({
    clientId: 'ensign',
    clientSecret: 'ensign-secret',
    redirectUris: [`${console}/auth/v1/method/oidc/local/callback`],
  });
  configDir = mkdtempSync(join(tmpdir(), 'ensign-auth-e2e-'));
  const configFile = join(configDir, 'config.yml');
  writeFileSync(
    configFile,
    `authentication:
  required: true
  session:
    domain: 127.0.0.1
    csrf:
      key: an-e2e-csrf-signing-key-of-32-bytes
  methods:
    token:
      enabled: true
      bootstrap:
        token: ${BOOTSTRAP}
    oidc:
      enabled: true
      providers:
        local:
          issuer_url: ${idp.issuer}
          client_id: ensign
          client_secret: ensign-secret
          redirect_address: ${console}
          scopes: [email, profile]
`,
  );
  server = await startServer(['--port', String(port), '--config', configFile]);
});

test.afterAll(async () => {
  await server?.stop();
  await idp?.close();
  rmSync(configDir, { recursive: true, force: true });
});

/** From the console's login page through the provider's login and consent pages, back to the console. */
async function logIn(page: import('@playwright/test').Page, login: string) {
  await page.goto(server.url);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByRole('button', { name: 'Login with Local' }).click();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/`));
}

test('signs in through the local OpenID provider, shows the user menu, and logs out', async ({ page }) => {
  await logIn(page, 'ada');
  const menu = page.getByRole('button', { name: 'User menu: Ada' });
  await expect(menu).toBeVisible();
  await expect(menu.locator('img')).toHaveAttribute('src', 'https://avatars.example.com/ada.png');
  await menu.click();
  await expect(page.getByRole('menu')).toContainText('Ada');
  await expect(page.getByRole('menu')).toContainText('ada');

  const self = await page.request.get(`${server.url}/auth/v1/self`);
  expect(self.status()).toBe(200);
  expect((await self.json()).method).toBe('METHOD_OIDC');

  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeVisible();
  expect((await page.request.get(`${server.url}/auth/v1/self`)).status()).toBe(401);
});

test('the console writes with no CSRF token; a form another site posts is refused', async ({ page }) => {
  await logIn(page, 'grace');
  await expect(page.getByRole('button', { name: 'User menu: Grace' })).toBeVisible();

  // The classic forgery: a page elsewhere posts a form to the API, which the browser sends with the cookie.
  await page.route('http://elsewhere.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<form method="post" enctype="text/plain" action="${server.url}/api/v1/namespaces">
        <input name='{"key":"forged","name":"Forged","x":"' value='"}'><button>Send</button></form>`,
    }),
  );
  await page.goto('http://elsewhere.test/');
  const [refused] = await Promise.all([
    page.waitForResponse(`${server.url}/api/v1/namespaces`),
    page.getByRole('button', { name: 'Send' }).click(),
  ]);
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toBe('cross-origin request detected from Sec-Fetch-Site header\n');
  const namespaces = await page.request.get(`${server.url}/api/v1/namespaces`);
  expect((await namespaces.json()).namespaces.map((namespace: { key: string }) => namespace.key)).not.toContain(
    'forged',
  );

  await page.goto(`${server.url}/#/settings/namespaces`);
  await page.getByRole('button', { name: 'New Namespace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Namespace' });
  await dialog.getByLabel('Name', { exact: true }).fill('Team Grace');
  const [created] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === 'POST'),
    dialog.getByRole('button', { name: 'Create' }).click(),
  ]);
  expect(created.request().headers()['x-csrf-token']).toBeUndefined();
  await expect(page.getByRole('row').filter({ hasText: 'Team Grace' })).toBeVisible();
});

test('Settings > API Tokens: create shows the token once, the token works, and several tokens are deleted at once', async ({
  page,
}) => {
  await logIn(page, 'linus');
  await page.goto(`${server.url}/#/settings/tokens`);
  const section = page.getByRole('region', { name: 'API Tokens' });

  const created: string[] = [];
  for (const name of ['deploy', 'reporting']) {
    await section.getByRole('button', { name: 'New Token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Token' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Description').fill(`${name} token`);
    if (name === 'reporting') await dialog.getByLabel('Expires On').fill('2999-12-31');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: 'Token Created' }).getByRole('textbox', { name: 'Token' });
    await expect(shown).toHaveValue(/^[A-Za-z0-9_-]{43}=$/);
    created.push(await shown.inputValue());
    await page.getByRole('button', { name: 'Done' }).click();
  }

  const api = await page.request.get(`${server.url}/api/v1/namespaces`, {
    headers: { authorization: `Bearer ${created[0]}` },
  });
  expect(api.status()).toBe(200);

  const rows = section.getByRole('row');
  await expect(rows.filter({ hasText: 'deploy token' })).toContainText('Never');
  await expect(rows.filter({ hasText: 'reporting token' })).toContainText('2999-12-31');
  // The token value is never listed again.
  await expect(section).not.toContainText(created[0]);

  await section.getByRole('checkbox', { name: 'Select deploy' }).check();
  await section.getByRole('checkbox', { name: 'Select reporting' }).check();
  await section.getByRole('button', { name: 'Delete (2)' }).click();
  await page.getByRole('dialog', { name: 'Delete Tokens' }).getByRole('button', { name: 'Delete' }).click();
  await expect(section.getByRole('cell', { name: 'deploy', exact: true })).toHaveCount(0);
  await expect(section.getByRole('cell', { name: 'reporting', exact: true })).toHaveCount(0);
  // The bootstrap token remains.
  await expect(section.getByRole('cell', { name: 'initial_bootstrap_token', exact: true })).toBeVisible();

  for (const token of created) {
    const refused = await page.request.get(`${server.url}/api/v1/namespaces`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status()).toBe(401);
  }
});
