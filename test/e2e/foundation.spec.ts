import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, startServer, test } from './fixtures.js';

test('the console lists the Default namespace it fetched from the server', async ({ page, server }) => {
  await page.goto(server.url);
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
  await expect(sidebar.getByRole('combobox', { name: 'Namespace' })).toHaveText('Default');
});

test('serve shuts down cleanly on SIGTERM after finishing in-flight requests', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-sigterm-'));
  const db = `file:${join(dir, 'ensign.db')}`;
  try {
    const server = await startServer(['--db', db]);
    // A request whose body is still arriving when the signal comes: in flight, not idle.
    const request = http.request(`${server.url}/api/v1/namespaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    const answered = new Promise<{ status?: number; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      });
      request.on('error', reject);
    });
    await new Promise<void>((written) => request.write('{"key": "in-flight",', () => written()));
    // An answer on another connection, accepted after this one, means the server has this one too.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const exited = server.stop('SIGTERM');
    await expect.poll(() => server.output()).toContain('SIGTERM received: finishing in-flight requests');
    expect(server.process.exitCode).toBeNull();
    const started = Date.now();
    request.end(' "name": "In flight"}');
    const { status, body } = await answered;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ key: 'in-flight', name: 'In flight' });
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);

    // The answered write is on disk: a restart on the same database serves it.
    const restarted = await startServer(['--db', db]);
    try {
      const namespace = await fetch(`${restarted.url}/api/v1/namespaces/in-flight`);
      expect(namespace.status).toBe(200);
      expect(await namespace.json()).toMatchObject({ key: 'in-flight', name: 'In flight' });
    } finally {
      await restarted.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve refuses to start with a one-line error when the database cannot be reached', async () => {
  await expect(startServer(['--db', 'postgres://nobody@127.0.0.1:1/none'])).rejects.toThrow(
    /server exited with 1:\nensign: cannot reach database postgres:\/\/nobody@127\.0\.0\.1:1\/none: connect ECONNREFUSED 127\.0\.0\.1:1\n$/,
  );
});
