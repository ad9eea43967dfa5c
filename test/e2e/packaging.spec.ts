import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, freePort, test } from './fixtures.js';

const run = promisify(execFile);

// The package as an ops team installs it: the packed tarball installed into a prefix of its own,
// run from an unrelated folder. (The build is already there: npm test builds before this layer.)
test('the packed package installs, answers --version, and serves the console, loader and demo from any folder', async () => {
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
    } finally {
      server.kill('SIGTERM');
    }

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
