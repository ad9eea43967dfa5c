import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { defaultConfig } from '../../server/config/index.js';
import { readableLine } from '../../server/logging.js';
import { createTestDatabase } from './support.js';

describe('logs', () => {
  it('writes one debug line per request to log.file, the evaluation fast path included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ensign-log-'));
    const database = await createTestDatabase('sqlite');
    const config = defaultConfig();
    config.db.url = database.url;
    config.log = { level: 'debug', encoding: 'json', file: join(dir, 'ensign.log') };
    const app = await buildApp(config, { logger: true });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const evaluation = await fetch(`${base}/evaluate/v1/boolean`, {
        method: 'POST',
        body: JSON.stringify({ flagKey: 'missing', entityId: 'e' }),
      });
      expect(evaluation.status).toBe(404);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      const requests = () =>
        readFileSync(config.log.file!, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
          .filter((line) => line.msg === 'request');
      await expect.poll(() => requests().length).toBe(2);
      expect(requests()).toEqual([
        expect.objectContaining({ level: 20, method: 'POST', url: '/evaluate/v1/boolean', status: 404 }),
        expect.objectContaining({ level: 20, method: 'GET', url: '/health', status: 200, reqId: expect.any(String) }),
      ]);
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it('turns a JSON line into a readable one for a terminal', () => {
    const line = JSON.stringify({
      level: 50,
      time: Date.UTC(2026, 0, 2),
      pid: 1,
      hostname: 'h',
      reqId: 'req-7',
      msg: 'failed',
      url: '/x',
      err: { message: 'boom', stack: 'Error: boom\n    at here' },
    });
    expect(readableLine(line)).toBe('2026-01-02T00:00:00.000Z ERROR [req-7] failed url=/x\nError: boom\n    at here\n');
  });
});
