import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postToTarget, WebhookTargetError, webhookTarget } from '../../../server/surveys/webhook-targets.js';

describe('webhook targets', () => {
  let server: Server;
  let port: number;
  const requests: IncomingMessage[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request);
      request.resume();
      // `/silent` is never answered.
      if (request.url !== '/silent') request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('checks the address an odd spelling stands for, and allows it only with the opt-in', async () => {
    const refused = await webhookTarget(`http://0x7f000001:${port}/hook`, false).catch((error) => error);
    expect(refused).toBeInstanceOf(WebhookTargetError);
    expect(refused).toMatchObject({ failure: 'refused address' });
    expect(await webhookTarget(`http://0x7f000001:${port}/hook`, true)).toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
    expect(await webhookTarget('https://203.0.113.10/hook', false)).toMatchObject({ address: '203.0.113.10' });
  });

  it('connects to the checked address, not to what the name resolves to, keeping the name in the Host header', async () => {
    // The name resolves nowhere: a second lookup at connection time would fail.
    const target = { url: new URL(`http://hooks.invalid:${port}/hook?x=1`), address: '127.0.0.1', family: 4 };
    expect(await postToTarget(target, { 'content-type': 'application/json' }, '{}', 5000)).toBeUndefined();
    const [request] = requests.slice(-1);
    expect(request.headers.host).toBe(`hooks.invalid:${port}`);
    expect(request.url).toBe('/hook?x=1');
    expect(request.headers['content-length']).toBe('2');
  });

  it('tells a receiver that never answers only that it timed out', async () => {
    const target = { url: new URL(`http://127.0.0.1:${port}/silent`), address: '127.0.0.1', family: 4 };
    expect(await postToTarget(target, {}, '{}', 50)).toBe('timed out');
  });
});
