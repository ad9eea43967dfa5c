import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { api, unique } from './console-support.js';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server (`node dist/cli.js serve`) on a free port with a temporary database,
 * and resolves once `/health` answers. `flags: false`: no flag but `args`, the port coming from
 * `env.FLIPT_SERVER_HTTP_PORT`.
 */
export async function startServer(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  { flags = true } = {},
): Promise<RunningServer> {
  // A test that must know the port before the server starts (to register it elsewhere) passes --port.
  const portArg = args.indexOf('--port');
  const port = !flags
    ? Number(env.FLIPT_SERVER_HTTP_PORT)
    : portArg >= 0
      ? Number(args[portArg + 1])
      : await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ensign-e2e-'));
  const hasDb = args.includes('--db');
  const child = spawn(
    process.execPath,
    [
      'dist/cli.js',
      'serve',
      ...(flags ? ['--host', '127.0.0.1', '--port', String(port)] : []),
      ...(hasDb || !flags ? [] : ['--db', `file:${join(dataDir, 'ensign.db')}`]),
      ...args,
    ],
    { env: { ...process.env, DATABASE_URL: undefined, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy in 20 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve(code);
        });
        child.kill(signal);
      }),
  };
}

/**
 * `server`: one Ensign server per worker, on its own temporary database. `namespace`: a namespace of the
 * test's own on it (key and name alike), so that no list the test reads holds what other tests created.
 */
export const test = base.extend<{ namespace: string }, { server: RunningServer }>({
  namespace: async ({ server }, use) => {
    const key = unique('e2e');
    await api(server, 'POST', '/api/v1/namespaces', { key, name: key });
    await use(key);
  },
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from its first parameter's pattern
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
