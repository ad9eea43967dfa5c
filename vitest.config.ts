import { defineConfig } from 'vitest/config';

// Three projects: `domain` (pure code, Node), `ui` (console and widget, happy-dom) and
// `server` (HTTP against a real SQLite file, and PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
