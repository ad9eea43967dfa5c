// e2e-order: starts first (npm pack and a global install: about 30 s)
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, freePort, test } from './fixtures.js';

const run = promisify(execFile);

// The package as an ops team installs it: the packed tarball installed into a prefix of its own,
// run from an unrelated folder. (The build is already there: npm test builds before this layer.)
test('the packed package installs, answers --version and --help, and serves the console, loader, demo and metrics from any folder', async () => {
  test.setTimeout(240_000);
  const root = mkdtempSync(join(tmpdir(), 'ensign-package-'));
  try {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', root], {
      cwd: resolve('.'),
    });
    const tarball = join(root, stdout.trim().split('\n').pop()!);
    const prefix = join(root, 'prefix');
    await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball]);
    const ensign = join(prefix, 'bin', 'ensign');
    const elsewhere = mkdtempSync(join(root, 'elsewhere-'));
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    expect((await run(ensign, ['--version'], { cwd: elsewhere })).stdout.trim()).toBe(`ensign v${version}`);
    expect((await run(ensign, ['import', '--help'], { cwd: elsewhere })).stdout).toContain('import FILE');
    expect((await run(ensign, ['serve', '--help'], { cwd: elsewhere })).stdout).toContain('shutdown_timeout');

    const port = await freePort();
    const server = spawn(
      ensign,
      ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', `file:${join(elsewhere, 'e.db')}`],
      {
        cwd: elsewhere,
        stdio: 'ignore',
      },
    );
    try {
      const url = `http://127.0.0.1:${port}`;
      await expect
        .poll(async () => (await fetch(`${url}/health`).catch(() => undefined))?.status, { timeout: 20_000 })
        .toBe(200);
      const index = await fetch(`${url}/`);
      expect(await index.text()).toContain('<script type="module"');
      expect((await fetch(`${url}/js/formbricks.js`)).status).toBe(200);
      expect((await fetch(`${url}/demo/`)).status).toBe(200);
      // Operations from the installed package: an evaluation is counted under Flipt's metric names.
      await fetch(`${url}/api/v1/namespaces/default/flags`, {
        method: 'POST',
        body: JSON.stringify({ key: 'packaged', name: 'Packaged', type: 'BOOLEAN_FLAG_TYPE' }),
      });
      await fetch(`${url}/evaluate/v1/boolean`, {
        method: 'POST',
        body: JSON.stringify({ flagKey: 'packaged', entityId: 'e', context: {} }),
      });
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^flipt_evaluations_requests_total\{[^}]*flag="packaged"[^}]*\} 1$/m);
    } finally {
      server.kill('SIGTERM');
    }
    // SIGTERM: the server drains and exits cleanly.
    expect(server.exitCode ?? (await new Promise((done) => server.once('exit', done)))).toBe(0);

    // Without its files the package says which folder is missing, in one line.
    const installed = join(prefix, 'lib', 'node_modules', 'ensign');
    rmSync(join(installed, 'dist', 'console'), { recursive: true });
    const broken = await run(ensign, ['serve', '--port', String(await freePort())], { cwd: elsewhere }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(broken).toMatchObject({ code: 1 });
    expect((broken as { stderr: string }).stderr.trim()).toBe(
      `ensign: the package's files are missing: ${join(installed, 'dist', 'console')} (run npm run build, or reinstall)`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
