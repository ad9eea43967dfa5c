import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, startServer, test } from './fixtures.js';

const FIXTURES = 'test/fixtures/declarative';

/** Runs the built `ensign` binary to completion. */
function ensign(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli.js', ...args],
      { env: { ...process.env, DATABASE_URL: undefined } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

test('the built binary imports, exports and re-imports a features file unchanged', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-e2e-declarative-'));
  try {
    const first = `file:${join(dir, 'first.db')}`;
    const second = `file:${join(dir, 'second.db')}`;
    expect(await ensign('import', `${FIXTURES}/v1.3.yml`, '--db', first)).toMatchObject({
      code: 0,
      stderr: 'imported 3 flag(s) and 2 segment(s) into default, production, staging\n',
    });
    const file = join(dir, 'exported.yml');
    expect((await ensign('export', '--all-namespaces', '-o', file, '--db', first)).code).toBe(0);
    expect((await ensign('import', file, '--db', second)).code).toBe(0);
    const again = await ensign('export', '--all-namespaces', '--db', second);
    expect(again.stdout).toBe(readFileSync(file, 'utf8'));

    const refused = await ensign('import', file, '--db', second);
    expect(refused).toMatchObject({
      code: 1,
      stderr: 'ensign: namespace "default", flag "pricing": flag "default/pricing" is not unique\n',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a built server on local storage reports its build and storage and refuses writes', async () => {
  const server = await startServer(['--storage', 'local', '--storage-path', `${FIXTURES}/local`]);
  try {
    const info = await (await fetch(`${server.url}/meta/info`)).json();
    expect(info.version).toMatch(/^v\d+\.\d+\.\d+/);
    expect(info.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(info.buildDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const config = await (await fetch(`${server.url}/meta/config`)).json();
    expect(config.storage).toEqual({ type: 'local', readOnly: true });

    const flag = await (await fetch(`${server.url}/api/v1/namespaces/default/flags/greeting`)).json();
    expect(flag.defaultVariant.key).toBe('hello');
    const write = await fetch(`${server.url}/api/v1/namespaces/default/flags/greeting`, { method: 'DELETE' });
    expect(write.status).toBe(500);
    expect(await write.json()).toEqual({ code: 13, message: 'not implemented', details: [] });
  } finally {
    await server.stop();
  }
});
