// Gzipped bytes of the survey loader (IIFE and ESM), of the survey chunk it imports once a survey shows
// or responses wait to be sent, and of the renderer, against the loader's budget and @formbricks/js 1.6.5
// as shipped. Run `npm run build` (or `npx tsup`) first.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET = 4096;
const sizes = (path: string) => {
  const raw = readFileSync(path);
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
};
const row = (name: string, path: string) => {
  if (!existsSync(path)) return console.log(`${name.padEnd(48)} missing (${path}): build first`);
  const { raw, gzip } = sizes(path);
  console.log(`${name.padEnd(48)} ${String(raw).padStart(8)} B raw ${String(gzip).padStart(7)} B gzip`);
  return gzip;
};

const loader = row('loader IIFE dist/widget/formbricks.js', 'dist/widget/formbricks.js');
const esm = row('loader ESM dist/widget/formbricks.mjs', 'dist/widget/formbricks.mjs');
row('survey chunk dist/widget/formbricks-survey.mjs', 'dist/widget/formbricks-survey.mjs');
row('renderer dist/widget/surveys.js', 'dist/widget/surveys.js');
row('@formbricks/js 1.6.5 index.umd.js', 'node_modules/@formbricks/js/dist/index.umd.js');
row('@formbricks/surveys 1.6.x index.umd.js', 'node_modules/@formbricks/surveys/dist/index.umd.js');
for (const [build, gzip] of [
  ['IIFE', loader],
  ['ESM', esm],
] as const) {
  if (gzip !== undefined) {
    console.log(
      `loader budget (${build}): ${gzip} of ${BUDGET} B gzip (${gzip <= BUDGET ? 'within' : `over by ${gzip - BUDGET} B`})`,
    );
  }
}
