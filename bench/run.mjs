// `npm run bench [name ...] [-- --save]`: bundles each bench/<name>.ts with esbuild (dependencies stay
// external) and runs it with Node; without names, runs them all. Each bench prints its figures and its
// budgets' verdicts (bench/support/verdicts.ts); this prints a summary line per bench and each budget's
// figure against the one kept in bench/results.json from the last run on main. `--save` keeps this run's
// figures there (for the benches run; the others keep theirs).
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const RESULTS = 'bench/results.json';
const args = process.argv.slice(2);
const save = args.includes('--save');
const named = args.filter((arg) => arg !== '--save');
const names = named.length
  ? named
  : readdirSync('bench')
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''));

/** bench/results.json: per bench, when and at which commit it ran, the load, and each budget's verdict. */
const kept = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};

mkdirSync('.tmp/bench', { recursive: true });
let failed = 0;
const summaries = [];
const results = {};
for (const name of names) {
  const outfile = join('.tmp/bench', `${name}.mjs`);
  const verdictsFile = join('.tmp/bench', `${name}.verdicts.jsonl`);
  rmSync(verdictsFile, { force: true });
  await esbuild.build({
    entryPoints: [join('bench', `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  console.log(`\n=== bench/${name}`);
  const result = spawnSync(process.execPath, [outfile], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_VERDICTS: verdictsFile },
  });
  if (result.status !== 0) failed++;
  const verdicts = existsSync(verdictsFile)
    ? readFileSync(verdictsFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const summary = summaryOf(name, verdicts, result.status);
  console.log(`--- ${summary}`);
  for (const verdict of verdicts)
    console.log(`    ${verdict.budget}: ${change(verdict, kept[name]?.budgets?.[verdict.budget])}`);
  summaries.push(summary);
  if (verdicts.length && result.status === 0) {
    results[name] = {
      commit: execSync('git rev-parse --short HEAD').toString().trim(),
      date: new Date().toISOString().slice(0, 10),
      load: Number(loadavg()[0].toFixed(2)),
      budgets: Object.fromEntries(verdicts.map(({ budget, ...rest }) => [budget, rest])),
    };
  }
}
if (names.length > 1) console.log(`\n=== summary\n${summaries.join('\n')}`);
if (save) {
  writeFileSync(RESULTS, `${JSON.stringify({ ...kept, ...results }, null, 2)}\n`);
  console.log(`figures of ${Object.keys(results).join(', ') || 'no bench'} kept in ${RESULTS}`);
}
process.exit(failed ? 1 : 0);

function summaryOf(name, verdicts, status) {
  const met = verdicts.filter((verdict) => verdict.met).length;
  const budgets = verdicts.length ? `${met} of ${verdicts.length} budgets met` : 'no budget recorded';
  return `bench/${name}: ${status === 0 ? '' : `FAILED (exit ${status}), `}${budgets}`;
}

/** A figure against the kept one: "2.61x, met (was 4.50x, not met, at 82cc845)". */
function change(verdict, before) {
  const now = `${verdict.figure ?? verdict.measured}, ${verdict.met ? 'met' : 'NOT MET'}`;
  if (!before) return `${now} (nothing kept before)`;
  return `${now} (was ${before.figure ?? before.measured}, ${before.met ? 'met' : 'not met'})`;
}
