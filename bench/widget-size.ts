// Gzipped bytes of the survey loader (IIFE and ESM), of the survey chunk it imports once a survey shows
// or responses wait to be sent, and of the renderer, against their budgets (bench/support/sizes.ts) and
// @formbricks/js 1.6.5 and @formbricks/surveys 1.6.x as shipped. Run `npm run build` (or `npx tsup`) first.
import { existsSync, readFileSync } from 'node:fs';
import { BUDGETS, type Budgeted, gzipped } from './support/sizes.js';
import { atMost } from './support/verdicts.js';

const row = (name: string, path: string): number | undefined => {
  if (!existsSync(path)) return void console.log(`${name.padEnd(48)} missing (${path}): build first`);
  const gzip = gzipped(path);
  console.log(
    `${name.padEnd(48)} ${String(readFileSync(path).length).padStart(8)} B raw ${String(gzip).padStart(7)} B gzip`,
  );
  return gzip;
};
const budgeted = (name: string, key: Budgeted) => {
  const { path, budget } = BUDGETS[key];
  const gzip = row(name, path);
  if (gzip === undefined) process.exitCode = 1;
  else atMost(name, gzip, budget, `${gzip} B gzipped`, `at most ${budget} B`);
};

budgeted('loader IIFE dist/widget/formbricks.js', 'loaderIife');
budgeted('loader ESM dist/widget/formbricks.mjs', 'loaderEsm');
budgeted('survey chunk dist/widget/formbricks-survey.mjs', 'surveyChunk');
budgeted('renderer dist/widget/surveys.js', 'renderer');
row('@formbricks/js 1.6.5 index.umd.js', 'node_modules/@formbricks/js/dist/index.umd.js');
row('@formbricks/surveys 1.6.x index.umd.js', 'node_modules/@formbricks/surveys/dist/index.umd.js');
