// `npm test`: every layer in turn (lint, typecheck, unit and server with vitest, then the build and its
// byte budgets, then end-to-end in Chromium). Stops at the first layer that fails and exits non-zero.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Chromium not found at ${chromium}: install it with "sudo apt-get install -y chromium" (or set CHROMIUM_PATH).`,
  );
  process.exit(1);
}

// The end-to-end specs run in a shuffled order (test/e2e-order/shuffle.ts), a new one each run unless
// E2E_SHUFFLE_SEED names one: tests must not depend on each other; the seed printed replays an order.
const seed = process.env.E2E_SHUFFLE_SEED ?? String(Math.floor(Math.random() * 2 ** 31));

const steps = [
  ['lint and format (Biome)', 'npx', ['biome', 'check', '.']],
  ['typecheck', 'npx', ['tsc', '--noEmit']],
  ['unit and server tests', 'npx', ['vitest', 'run', '--project', 'domain', '--project', 'ui', '--project', 'server']],
  ['build', 'npm', ['run', 'build']],
  ['byte budgets', 'npx', ['vitest', 'run', '--project', 'budgets']],
  [`end-to-end tests (shuffled, E2E_SHUFFLE_SEED=${seed})`, 'npx', ['playwright', 'test'], { E2E_SHUFFLE_SEED: seed }],
];

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(0)} s`;
const times = [];
const started = performance.now();
for (const [name, command, args, env] of steps) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const layerStarted = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  times.push(`${name}: ${seconds(layerStarted)}`);
  if (result.status !== 0) {
    console.error(`\n${name} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
}
console.log(`\nall test layers passed in ${seconds(started)}\n${times.map((line) => `  ${line}`).join('\n')}`);
