// `npm run bench [name ...]`: bundles each bench/<name>.ts with esbuild (dependencies stay external)
// and runs it with Node; every benchmark prints its own figures. Without names, runs them all.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const names = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync('bench')
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''));

mkdirSync('.tmp/bench', { recursive: true });
let failed = 0;
for (const name of names) {
  const outfile = join('.tmp/bench', `${name}.mjs`);
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
  const result = spawnSync(process.execPath, [outfile], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
