import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { selfSignedCertificate } from '../support/tls.js';
import { Scrape } from '../support/prometheus.js';
import { expect, freePort, startServer, test } from './fixtures.js';

const run = promisify(execFile);

function getOverTls(url: string, ca: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(url, { ca }, (incoming) => {
      let text = '';
      incoming.on('data', (chunk) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test('server.protocol https serves TLS with the configured certificate, and logs a start-up summary to log.file in JSON', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-https-'));
  const { certFile, keyFile } = selfSignedCertificate(dir);
  const port = await freePort();
  const logFile = join(dir, 'ensign.log');
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    `server:\n  protocol: https\n  host: 127.0.0.1\n  https_port: ${port}\n  cert_file: ${certFile}\n  cert_key: ${keyFile}\nlog:\n  file: ${logFile}\n  encoding: json\n`,
  );
  const child = spawn(
    process.execPath,
    ['dist/cli.js', 'serve', '--config', config, '--db', `file:${join(dir, 'e.db')}`],
    {
      stdio: 'ignore',
    },
  );
  try {
    const ca = readFileSync(certFile);
    await expect
      .poll(async () => (await getOverTls(`https://127.0.0.1:${port}/health`, ca).catch(() => undefined))?.text, {
        timeout: 20_000,
      })
      .toBe('{"status":"SERVING"}');
    // Plain HTTP on the same port is not served.
    expect(
      await fetch(`http://127.0.0.1:${port}/health`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
    await expect.poll(() => readFileSync(logFile, 'utf8')).toContain('ensign is ready');
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const summary = lines.find((line) => line.msg === 'ensign is ready');
    expect(summary).toMatchObject({
      level: 30,
      console: `https://127.0.0.1:${port}/`,
      demo: `https://127.0.0.1:${port}/demo/`,
      storage: 'database',
      authentication: 'none',
      workers: 1,
    });
    // The start, step by step: each step's milliseconds add up to the total since the process started.
    const { total, ...steps } = summary.startup as Record<string, number>;
    expect(Object.keys(steps)).toEqual(['modules', 'config', 'database', 'app', 'listen', 'grpc']);
    expect(Object.values(steps).every((ms) => ms >= 0)).toBe(true);
    expect(Math.abs(Object.values(steps).reduce((sum, ms) => sum + ms, 0) - total)).toBeLessThanOrEqual(3);
  } finally {
    child.kill('SIGTERM');
  }

  // An unreadable certificate stops the start with one line naming the key.
  writeFileSync(
    config,
    `server:\n  protocol: https\n  cert_file: ${join(dir, 'missing.pem')}\n  cert_key: ${keyFile}\n`,
  );
  const failed = await run(process.execPath, ['dist/cli.js', 'serve', '--config', config]).catch(
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed).toMatchObject({ code: 1 });
  expect((failed as { stderr: string }).stderr.trim()).toBe(
    `ensign: server.cert_file: cannot read ${join(dir, 'missing.pem')}: ENOENT`,
  );
});

test('SIGTERM exits within server.shutdown_timeout even while a request hangs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-shutdown-'));
  const config = join(dir, 'config.yml');
  writeFileSync(config, 'server:\n  shutdown_timeout: 1s\n');
  const server = await startServer(['--config', config]);
  // A request whose body never finishes arriving: in flight until the deadline.
  const socket = connect(server.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('POST /evaluate/v1/boolean HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"flagKey"');
  await expect.poll(async () => (await fetch(`${server.url}/health`)).status).toBe(200);
  const started = Date.now();
  const code = await server.stop('SIGTERM');
  socket.destroy();
  expect(code).toBe(1);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(server.output()).toContain('requests still open after server.shutdown_timeout (1000 ms): exiting anyway');
});

test('with --workers 2, GET /metrics answers for both workers', async () => {
  const server = await startServer(['--workers', '2']);
  try {
    await expect.poll(() => server.output()).toContain('ensign: 2 workers listening');
    // New connections are dealt round-robin, so these reach both workers.
    for (let i = 0; i < 10; i++) {
      const answer = await fetch(`${server.url}/evaluate/v1/boolean`, {
        method: 'POST',
        headers: { connection: 'close' },
        body: JSON.stringify({ flagKey: 'missing', entityId: `e${i}` }),
      });
      expect(answer.status).toBe(404);
    }
    const scrape = await Scrape.of(`${server.url}/metrics`, { headers: { connection: 'close' } });
    // A flag the data does not hold, in a namespace without flags, is counted under "(unknown)" for both.
    expect(scrape.value('flipt_evaluations_errors_total', { flag: '(unknown)', namespace: '(unknown)' })).toBe(10);
  } finally {
    await server.stop();
  }
});

test('ensign migrate names the migrations it applied, and every command has its --help', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-migrate-'));
  const db = `file:${join(dir, 'm.db')}`;
  const first = await run(process.execPath, ['dist/cli.js', 'migrate', '--db', db]);
  expect(first.stdout).toMatch(/^applied \d+ migration\(s\): \S+/);
  expect((await run(process.execPath, ['dist/cli.js', 'migrate', '--db', db])).stdout.trim()).toBe(
    'database is up to date',
  );
  for (const command of ['serve', 'migrate', 'import', 'export']) {
    const { stdout } = await run(process.execPath, ['dist/cli.js', command, '--help']);
    expect(stdout).toContain(`Usage: ensign ${command}`);
  }
});
