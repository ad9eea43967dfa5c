import { defineConfig } from '@playwright/test';
import { shuffledTestDir } from './test/e2e-order/shuffle.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** With E2E_SHUFFLE_SEED, the spec files run in that seed's order (test/e2e-order/shuffle.ts). */
const shuffleSeed = process.env.E2E_SHUFFLE_SEED;

// End-to-end tests drive Debian's Chromium (never a downloaded browser) against the built server.
export default defineConfig({
  testDir: shuffleSeed ? shuffledTestDir('test/e2e', Number(shuffleSeed)) : 'test/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    // Retries are 0, so no trace is recorded: recording one for every test cost time on each of them.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
