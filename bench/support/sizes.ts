// Gzipped sizes of the built bundles and their byte budgets (docs/decisions.md, "Byte budgets").
// Printed by `npm run bench widget-size` and `npm run bench console-size`, asserted by
// test/budgets after `npm run build`: sizes are deterministic, so a test may hold the line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

export const KB = 1024;

/** Every budgeted bundle: where it is built, and its budget in gzipped bytes. */
export const BUDGETS = {
  loaderIife: { path: 'dist/widget/formbricks.js', budget: 4 * KB },
  loaderEsm: { path: 'dist/widget/formbricks.mjs', budget: 4 * KB },
  surveyChunk: { path: 'dist/widget/formbricks-survey.mjs', budget: 4 * KB },
  renderer: { path: 'dist/widget/surveys.js', budget: 16 * KB },
  consoleFirstPageJs: { path: 'dist/console', budget: 90 * KB },
  consoleFirstPageCss: { path: 'dist/console', budget: 12 * KB },
} as const;

export type Budgeted = keyof typeof BUDGETS;

export function gzipped(path: string): number {
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build first`);
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

export const kb = (bytes: number): string => `${(bytes / KB).toFixed(1)} KB`;

const CONSOLE = 'dist/console';

/** The console's entry script and stylesheets, as index.html loads them. */
function consoleEntry(): { entry: string; css: string[] } {
  const html = readFileSync(join(CONSOLE, 'index.html'), 'utf8');
  const entry = /<script type="module" src="\/([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no entry script in ${CONSOLE}/index.html: run npm run build first`);
  const css = [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((match) => match[1]);
  return { entry, css };
}

/** A console file and every chunk reachable from it through static imports (dynamic import() excluded). */
export function staticGraph(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(join(CONSOLE, file), 'utf8');
    for (const match of source.matchAll(/(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
      queue.push(normalize(join(dirname(file), match[1])));
    }
  }
  return seen;
}

export const consoleFileSize = (file: string): number => gzipped(join(CONSOLE, file));
export const sumOf = (files: Iterable<string>): number =>
  [...files].reduce((sum, file) => sum + consoleFileSize(file), 0);

/** What the console's first page loads: its JavaScript files and the gzipped bytes of its JS and CSS. */
export function consoleFirstPage(): { files: Set<string>; js: number; css: number } {
  const { entry, css } = consoleEntry();
  const files = staticGraph(entry);
  return { files, js: sumOf(files), css: sumOf(css) };
}

/** Every JavaScript file of the console build: the entry and its chunks. */
export function consoleJsFiles(): string[] {
  const { entry } = consoleEntry();
  const chunks = readdirSync(join(CONSOLE, 'chunks'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `chunks/${file}`);
  return [entry, ...chunks];
}

/** The gzipped size of every budgeted bundle, measured from the build. */
export function measureBudgeted(): Record<Budgeted, number> {
  const firstPage = consoleFirstPage();
  return {
    loaderIife: gzipped(BUDGETS.loaderIife.path),
    loaderEsm: gzipped(BUDGETS.loaderEsm.path),
    surveyChunk: gzipped(BUDGETS.surveyChunk.path),
    renderer: gzipped(BUDGETS.renderer.path),
    consoleFirstPageJs: firstPage.js,
    consoleFirstPageCss: firstPage.css,
  };
}
