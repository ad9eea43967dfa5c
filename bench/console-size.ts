// Gzipped bytes of the console build (dist/console, from `npm run build`): the JavaScript the flag list,
// opened cold from its URL, loads until its rows are shown (the budgeted figure, counted as
// bench/support/sizes.ts `consoleFirstPage` says), the stylesheet, and all chunks, against the budgets.
import {
  BUDGETS,
  FIRST_PAGE,
  consoleFileSize,
  consoleFirstPage,
  consoleJsFiles,
  kb,
  lazyChunk,
  staticGraph,
  sumOf,
} from './support/sizes.js';
import { atMost } from './support/verdicts.js';

const firstPage = consoleFirstPage();
const allJs = consoleJsFiles();

console.log(
  `JavaScript to the ${FIRST_PAGE} rows: ${kb(firstPage.js)} gzipped in ${firstPage.files.size} files (budget ${kb(BUDGETS.consoleFirstPageJs.budget)})`,
);
console.log(
  `  of which the entry and its static imports: ${kb(sumOf(firstPage.entryFiles))} in ${firstPage.entryFiles.size} files`,
);
console.log(`CSS: ${kb(firstPage.css)} gzipped (budget ${kb(BUDGETS.consoleFirstPageCss.budget)})`);
console.log(`all JavaScript: ${kb(sumOf(allJs))} gzipped in ${allJs.length} files`);
// The shell's lazy parts that some consoles render beside the page (git storage, a survey environment):
// the rows do not wait for them, so they are not counted above.
for (const part of ['RefSelector', 'survey-loader']) {
  const added = [...staticGraph(lazyChunk(firstPage.entryFiles, part))].filter((file) => !firstPage.files.has(file));
  console.log(`  ${part} when shown: +${kb(sumOf(added))} in ${added.length} files`);
}
console.log('largest files:');
const largest = allJs
  .map((file) => [file, consoleFileSize(file)] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8);
for (const [file, bytes] of largest)
  console.log(`  ${kb(bytes).padStart(9)}  ${file}${firstPage.files.has(file) ? '  (to the rows)' : ''}`);
console.log('to the rows:');
for (const file of [...firstPage.files].sort()) console.log(`  ${kb(consoleFileSize(file)).padStart(9)}  ${file}`);

const budgeted = [
  ['JavaScript to the rows', firstPage.js, BUDGETS.consoleFirstPageJs.budget],
  ['CSS', firstPage.css, BUDGETS.consoleFirstPageCss.budget],
] as const;
const met = budgeted.map(([name, bytes, budget]) =>
  atMost(name, bytes, budget, `${kb(bytes)} gzipped`, `at most ${kb(budget)}`),
);
if (met.includes(false)) process.exitCode = 1;
