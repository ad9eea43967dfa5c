import { type ClientHttp2Session, connect, type IncomingHttpHeaders } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Front,
  FrontStatus,
  MAX_CONCURRENT_STREAMS,
  MAX_MESSAGE,
  MessageReader,
  startFront,
} from '../../../server/grpc/front.js';
import { startTestApp, type TestApp } from '../support.js';
import { startGrpc } from './client.js';

// What the gRPC port's front refuses to spend on a caller: copying a message more than once, reading a body
// before the call is admitted, buffering a message declared over the limit, unbounded streams, idle streams
// and connections.

const VARIANT = '/flipt.evaluation.EvaluationService/Variant';
const TOKEN = 'a-bootstrap-token-for-the-front-tests';

interface Status {
  headers: IncomingHttpHeaders;
  /** Whether the client had finished sending when the status came. */
  beforeEnd: boolean;
}

/** Opens a call and sends `frames` without ending the request; resolves with the status however it comes. */
function openCall(session: ClientHttp2Session, path: string, frames: Buffer[], headers = {}): Promise<Status> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      ...headers,
    });
    let ended = false;
    const done = (received: IncomingHttpHeaders) => resolve({ headers: received, beforeEnd: !ended });
    stream.on('response', (received) => {
      if (received['grpc-status'] !== undefined) done(received);
    });
    stream.on('trailers', done);
    stream.on('data', () => {});
    stream.on('error', reject);
    for (const frame of frames) stream.write(frame);
    stream.on('end', () => {
      ended = true;
    });
  });
}

describe('MessageReader', () => {
  it('copies a message sent in 64-byte frames once, however many frames it takes', () => {
    const message = Buffer.alloc(2 * 1024 * 1024, 7);
    const whole = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), message]);
    whole.writeUInt32BE(message.length, 1);
    const reader = new MessageReader(MAX_MESSAGE);
    let received: Buffer | undefined;
    for (let offset = 0; offset < whole.length; offset += 64) {
      expect(received).toBeUndefined();
      received = reader.push(whole.subarray(offset, offset + 64));
    }
    expect(received?.equals(message)).toBe(true);
    // The prefix's frames joined once (at most one frame past it), then the whole message once.
    expect(reader.copied).toBeLessThanOrEqual(whole.length + 64);
  });

  it('refuses a declared length over the limit from the prefix alone', () => {
    const reader = new MessageReader(1000);
    expect(() => reader.push(Buffer.from([0, 0, 0, 0x10, 0]))).toThrow(
      new FrontStatus(8, 'received message larger than max (4096 vs. 1000)'),
    );
  });

  it('refuses a compressed message and anything past the one message', () => {
    expect(() => new MessageReader(1000).push(Buffer.from([1, 0, 0, 0, 0]))).toThrow(FrontStatus);
    expect(() => new MessageReader(1000).push(Buffer.from([0, 0, 0, 0, 1, 9, 9]))).toThrow(
      'expected one uncompressed message',
    );
    const split = new MessageReader(1000);
    expect(split.push(Buffer.from([0, 0]))).toBeUndefined();
    expect(split.push(Buffer.from([0, 0, 2, 5]))).toBeUndefined();
    expect(split.push(Buffer.from([6]))).toEqual(Buffer.from([5, 6]));
  });
});

describe('the gRPC front with authentication required', () => {
  let t: TestApp;
  let g: Awaited<ReturnType<typeof startGrpc>>;
  let session: ClientHttp2Session;
  beforeAll(async () => {
    t = await startTestApp('sqlite', (config) => {
      config.authentication = { required: true, methods: { token: { enabled: true, bootstrap: { token: TOKEN } } } };
    });
    g = await startGrpc(t);
    session = connect(`http://127.0.0.1:${g.server.port}`);
  });
  afterAll(async () => {
    session?.close();
    await g?.close();
    await t?.close();
  });

  it('refuses a call without a token before reading any of its body', async () => {
    // A large message declared and barely begun: the refusal comes while the client is still sending.
    const prefix = Buffer.from([0, 0, 0x20, 0, 0]);
    const status = await openCall(session, VARIANT, [prefix, Buffer.alloc(64)]);
    expect(status.headers['grpc-status']).toBe('16');
    expect(status.beforeEnd).toBe(true);
  });

  it('refuses a message declared over the limit as soon as its prefix arrives', async () => {
    const prefix = Buffer.from([0, 0, 0, 0, 0]);
    prefix.writeUInt32BE(MAX_MESSAGE + 1, 1);
    const status = await openCall(session, VARIANT, [prefix], {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(status.headers['grpc-status']).toBe('8');
    expect(status.beforeEnd).toBe(true);
  });

  it('holds a call passed on to grpc-js to the same message limit', async () => {
    const prefix = Buffer.from([0, 0, 0, 0, 0]);
    prefix.writeUInt32BE(MAX_MESSAGE + 1, 1);
    const status = await openCall(session, '/flipt.Flipt/GetFlag', [prefix], {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(status.headers['grpc-status']).toBe('8');
  });

  it(`advertises at most ${MAX_CONCURRENT_STREAMS} concurrent streams per connection`, async () => {
    if (!session.remoteSettings.maxConcurrentStreams)
      await new Promise((resolve) => session.once('remoteSettings', resolve));
    expect(session.remoteSettings.maxConcurrentStreams).toBe(MAX_CONCURRENT_STREAMS);
  });
});

describe('the gRPC front with idle calls and connections', () => {
  let front: Front;
  beforeAll(async () => {
    front = await startFront({
      host: '127.0.0.1',
      port: 0,
      methods: new Map([['/test.Echo/Echo', { admit: () => undefined, run: (message: Buffer) => message }]]),
      statusOf: (error) => ({ code: (error as FrontStatus).code ?? 13, details: (error as Error).message }),
      inject: () => {},
      idleStreamMs: 100,
      idleSessionMs: 300,
    });
  });
  afterAll(async () => {
    front?.destroy();
    await front?.close();
  });

  it('cancels a call whose message stops arriving, then closes the idle connection', async () => {
    const session = connect(`http://127.0.0.1:${front.port}`);
    const closed = new Promise((resolve) => session.once('close', resolve));
    const status = await openCall(session, '/test.Echo/Echo', [Buffer.from([0, 0, 0, 0, 9])]);
    expect(status.headers['grpc-status']).toBe('4');
    await closed;
    expect(session.closed || session.destroyed).toBe(true);
  });

  it('answers a message that arrives whole', async () => {
    const session = connect(`http://127.0.0.1:${front.port}`);
    try {
      const body = await new Promise<Buffer>((resolve, reject) => {
        const stream = session.request({
          ':method': 'POST',
          ':path': '/test.Echo/Echo',
          'content-type': 'application/grpc',
        });
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
        stream.end(Buffer.from([0, 0, 0, 0, 2, 4, 2]));
      });
      expect(body).toEqual(Buffer.from([0, 0, 0, 0, 2, 4, 2]));
    } finally {
      session.close();
    }
  });
});
