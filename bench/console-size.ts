// Gzipped bytes of the console build (dist/console, from `npm run build`): the JavaScript and CSS the
// first page loads (the entry script, the chunks it imports statically, the stylesheet) and of all
// chunks. Budget: initial JavaScript at most 90 KB gzipped, CSS at most 12 KB gzipped.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = 'dist/console';
const BUDGET = { js: 90 * 1024, css: 12 * 1024 };

const gzipped = (file: string) => gzipSync(readFileSync(join(ROOT, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const html = readFileSync(join(ROOT, 'index.html'), 'utf8');
const entry = /<script type="module" src="\/([^"]+)"/.exec(html)?.[1];
const css = [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((match) => match[1]);
if (!entry) throw new Error(`no entry script in ${ROOT}/index.html: run npm run build first`);

/** The entry and every chunk reachable from it through static imports (dynamic import() excluded). */
function staticGraph(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const match of source.matchAll(/(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
      queue.push(normalize(join(dirname(file), match[1])));
    }
  }
  return seen;
}

const initial = staticGraph(entry);
const initialJs = [...initial].reduce((sum, file) => sum + gzipped(file), 0);
const initialCss = css.reduce((sum, file) => sum + gzipped(file), 0);
const allJs = [
  entry,
  ...readdirSync(join(ROOT, 'chunks'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `chunks/${f}`),
];
const allJsBytes = allJs.reduce((sum, file) => sum + gzipped(file), 0);

console.log(`initial JavaScript: ${kb(initialJs)} gzipped in ${initial.size} files (budget ${kb(BUDGET.js)})`);
console.log(`initial CSS:        ${kb(initialCss)} gzipped (budget ${kb(BUDGET.css)})`);
console.log(`all JavaScript:     ${kb(allJsBytes)} gzipped in ${allJs.length} files`);
// The flag list, the page most visits open first, adds its lazy chunk and what that chunk imports.
const flagsPage = allJs.find((file) => file.startsWith('chunks/FlagsPage-'));
if (flagsPage) {
  const withPage = new Set([...initial, ...staticGraph(flagsPage)]);
  const bytes = [...withPage].reduce((sum, file) => sum + gzipped(file), 0);
  console.log(`with the flag list: ${kb(bytes)} gzipped in ${withPage.size} files`);
}
const largest = allJs
  .map((file) => [file, gzipped(file)] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8);
for (const [file, bytes] of largest)
  console.log(`  ${kb(bytes).padStart(9)}  ${file}${initial.has(file) ? '  (initial)' : ''}`);

const over = [initialJs > BUDGET.js && 'initial JavaScript', initialCss > BUDGET.css && 'CSS'].filter(Boolean);
if (over.length) {
  console.error(`over budget: ${over.join(', ')}`);
  process.exit(1);
}
