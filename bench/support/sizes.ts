// Gzipped sizes of the built bundles and their byte budgets (docs/decisions.md, "Byte budgets").
// Printed by `npm run bench widget-size` and `npm run bench console-size`, asserted by
// test/budgets after `npm run build`: sizes are deterministic, so a test may hold the line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

export const KB = 1024;

/** Every budgeted bundle: where it is built, and its budget in gzipped bytes. */
export const BUDGETS = {
  // both faces of the loader: @formbricks/js 1.6's init() and today's setup() (docs/decisions.md)
  loaderIife: { path: 'dist/widget/formbricks.js', budget: 5 * KB },
  loaderEsm: { path: 'dist/widget/formbricks.mjs', budget: 5 * KB },
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

const RELATIVE_IMPORT = /(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function importedBy(file: string, pattern: RegExp): string[] {
  const source = readFileSync(join(CONSOLE, file), 'utf8');
  return [...source.matchAll(pattern)].map((match) => normalize(join(dirname(file), match[1])));
}

/** A console file and every chunk reachable from it through static imports (dynamic import() excluded). */
export function staticGraph(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...importedBy(file, RELATIVE_IMPORT));
  }
  return seen;
}

export const consoleFileSize = (file: string): number => gzipped(join(CONSOLE, file));
export const sumOf = (files: Iterable<string>): number =>
  [...files].reduce((sum, file) => sum + consoleFileSize(file), 0);

/** The chunk `files` load with import() whose source module is `name` (esbuild names such chunks after it). */
export function lazyChunk(files: Iterable<string>, name: string): string {
  const chunks = [...files].flatMap((file) => importedBy(file, DYNAMIC_IMPORT));
  const chunk = chunks.find((path) => path.startsWith(`chunks/${name}-`));
  if (!chunk) throw new Error(`no import() of a ${name} chunk in ${[...files].join(', ')}`);
  return chunk;
}

/** The module of the route the console is budgeted on: the flag list (`/namespaces/{key}/flags`). */
export const FIRST_PAGE = 'FlagsPage';

/**
 * What the console loads, opened cold on the flag list, until the list shows its rows, and its gzipped
 * bytes: the entry script and the chunks it imports statically (index.html preloads them), then the
 * route's lazy chunk (the shell imports it while the session is checked, see app/Layout.tsx) and the
 * chunks that one imports statically. Neither the flag list nor the shell runs another import() before
 * the rows are shown (tooltips load floating-ui when one first opens, the user menu loads ariakit when
 * first clicked), except for the shell's parts that some consoles render beside the page, in a Suspense
 * boundary or an effect of their own, which the rows do not wait for: the git ref selector with git
 * storage, the survey loader when a survey environment is configured (bench/console-size prints them).
 * test/e2e/console-flags.spec.ts checks that the browser loads exactly these files.
 */
export function consoleFirstPage(): { entryFiles: Set<string>; files: Set<string>; js: number; css: number } {
  const { entry, css } = consoleEntry();
  const entryFiles = staticGraph(entry);
  const files = new Set([...entryFiles, ...staticGraph(lazyChunk(entryFiles, FIRST_PAGE))]);
  return { entryFiles, files, js: sumOf(files), css: sumOf(css) };
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
