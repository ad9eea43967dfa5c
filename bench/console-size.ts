// Gzipped bytes of the console build (dist/console, from `npm run build`): the JavaScript and CSS the
// first page loads (the entry script, the chunks it imports statically, the stylesheet) and of all
// chunks, against the budgets in bench/support/sizes.ts.
import { BUDGETS, consoleFirstPage, consoleFileSize, consoleJsFiles, kb, staticGraph, sumOf } from './support/sizes.js';

const firstPage = consoleFirstPage();
const allJs = consoleJsFiles();

console.log(
  `initial JavaScript: ${kb(firstPage.js)} gzipped in ${firstPage.files.size} files (budget ${kb(BUDGETS.consoleFirstPageJs.budget)})`,
);
console.log(`initial CSS:        ${kb(firstPage.css)} gzipped (budget ${kb(BUDGETS.consoleFirstPageCss.budget)})`);
console.log(`all JavaScript:     ${kb(sumOf(allJs))} gzipped in ${allJs.length} files`);
// The flag list, the page most visits open first, adds its lazy chunk and what that chunk imports.
const flagsPage = allJs.find((file) => file.startsWith('chunks/FlagsPage-'));
if (flagsPage) {
  const withPage = new Set([...firstPage.files, ...staticGraph(flagsPage)]);
  console.log(`with the flag list: ${kb(sumOf(withPage))} gzipped in ${withPage.size} files`);
}
const largest = allJs
  .map((file) => [file, consoleFileSize(file)] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8);
for (const [file, bytes] of largest)
  console.log(`  ${kb(bytes).padStart(9)}  ${file}${firstPage.files.has(file) ? '  (initial)' : ''}`);

const over = [
  firstPage.js > BUDGETS.consoleFirstPageJs.budget && 'initial JavaScript',
  firstPage.css > BUDGETS.consoleFirstPageCss.budget && 'CSS',
].filter(Boolean);
if (over.length) {
  console.error(`over budget: ${over.join(', ')}`);
  process.exit(1);
}
