import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Projects: `domain` (pure code, Node), `ui` (console and widget, happy-dom), `server` (HTTP against a
// real SQLite file, and PostgreSQL when TEST_DATABASE_URL is set), and `budgets` (bundle sizes, which
// needs the build: npm test runs it after `npm run build`).
export default defineConfig({
  test: {
    // Vitest's default is a worker per core less one: one on 2 cores. The server suites spend most of their
    // time waiting on databases and sockets, so at least three workers keep two cores busy (on 2 cores, the
    // domain, ui and server projects took 292 s with one worker, 230 s with two, 172 s with three).
    maxWorkers: Math.max(3, availableParallelism()),
    projects: [
      {
        extends: true,
        test: { name: 'domain', include: ['test/unit/domain/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['test/unit/{src,widget}/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/server/postgres.setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: { name: 'budgets', include: ['test/budgets/**/*.test.ts'], environment: 'node' },
      },
    ],
  },
});
