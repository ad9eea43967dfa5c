import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/** A server the tests reach: one they started (fixtures.ts), or any Ensign at an address. */
export interface Server {
  url: string;
}

/** Calls the server's API directly (to seed or check data), failing on a non-OK answer. */
export async function api<T = unknown>(server: Server, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A key no other test in the worker's shared server uses. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Answers the console's requests to `url` with the server's JSON answer passed through `rewrite`. A request
 * the console aborts meanwhile (a query cancelled as its page unmounts) is let go: its answer is disposed of.
 */
export async function rewriteJson(page: Page, url: string, rewrite: (body: any) => unknown): Promise<void> {
  await page.route(url, async (route) => {
    try {
      await route.fulfill({ json: rewrite(await (await route.fetch()).json()) });
    } catch {
      await route.abort().catch(() => {});
    }
  });
}

/** Shows the console the default namespace alone (other tests on the worker's server add namespaces). */
export const onlyDefaultNamespace = (page: Page): Promise<void> =>
  rewriteJson(page, '**/api/v1/namespaces', (list) => ({
    ...list,
    namespaces: list.namespaces.filter((n: { key: string }) => n.key === 'default'),
  }));

export async function open(page: Page, server: Server, route: string): Promise<void> {
  await page.goto(`${server.url}/#${route}`);
}

/**
 * axe-core for the page. On a page without frames, axe.run in the page itself ("legacy mode"): the same
 * rules and results as @axe-core/playwright's default, which runs axe in every frame and then combines
 * the results in a new blank tab it opens for each analysis (about twice the time, for frames we do not
 * have). A page with frames keeps the default.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1);
}

/** axe-core on the current page: no serious or critical violations. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await axe(page).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

export function toast(page: Page) {
  return {
    /** The newest success toast (earlier ones may still be showing). */
    success: page
      .getByRole('status')
      .filter({ hasText: /^Successfully/ })
      .last(),
    error: page.getByRole('alert').filter({ hasText: 'Error' }),
  };
}

/**
 * Chooses options of a searchable picker (src/components/Picker.tsx) the way a person does: open it,
 * type part of the name, choose the match; a multiple picker is closed with Escape afterwards.
 */
export async function pick(scope: Page | Locator, label: string, ...names: string[]): Promise<void> {
  const page = 'page' in scope ? scope.page() : scope;
  const picker = scope.getByRole('combobox', { name: label, exact: true });
  await picker.click();
  const listbox = page.getByRole('listbox', { name: label, exact: true });
  // A single picker closes itself on a choice; only a multiple one is closed with Escape (pressed
  // after a single picker has closed, Escape would close the dialog around it).
  const multiple = (await listbox.getAttribute('aria-multiselectable')) === 'true';
  for (const name of names) {
    await page.getByRole('combobox', { name: `Search ${label}` }).fill(name);
    await listbox
      .getByRole('option', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) })
      .click();
  }
  if (multiple) await page.keyboard.press('Escape');
  await expect(picker).toHaveAttribute('aria-expanded', 'false');
}

/** The options a picker offers, read by opening it and closing it again. */
export async function offered(page: Page, scope: Page | Locator, label: string): Promise<string[]> {
  const picker = scope.getByRole('combobox', { name: label, exact: true });
  await picker.click();
  const listbox = page.getByRole('listbox', { name: label, exact: true });
  await expect(listbox).toBeVisible();
  const names = await listbox.getByRole('option').allInnerTexts();
  await page.keyboard.press('Escape');
  await expect(picker).toHaveAttribute('aria-expanded', 'false');
  return names.map((name) => name.replace(/\s+/g, ' ').trim());
}
