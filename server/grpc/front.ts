import http2, { type IncomingHttpHeaders, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2';
import { duplexPair } from 'node:stream';

/**
 * A unary RPC answered by the front itself: the request message's bytes in, the response message's
 * bytes out (or a promise of them); a thrown error becomes the call's status through `statusOf`.
 */
export type FrontMethod = (message: Buffer, headers: IncomingHttpHeaders, peer: string) => Buffer | Promise<Buffer>;

/** The metadata carrying the caller's address to grpc-js, which sees the front as its peer. */
export const PEER_HEADER = 'x-ensign-grpc-peer';

export interface FrontOptions {
  host: string;
  port: number;
  tls?: { cert: Buffer; key: Buffer };
  /** The RPCs answered here, by path (`/flipt.evaluation.EvaluationService/Variant`). */
  methods: Map<string, FrontMethod>;
  statusOf(error: unknown): { code: number; details: string };
  /** Hands grpc-js one end of a new in-memory connection (its connection injector). */
  inject(connection: import('node:stream').Duplex): void;
}

export interface Front {
  port: number;
  /** Stops accepting connections and ends each session once its streams are done (GOAWAY). */
  close(): Promise<void>;
  /** Cuts the sessions still open. */
  destroy(): void;
}

/** At most this much of one request message is read on the front (grpc-js's default receive limit). */
const MAX_MESSAGE = 4 * 1024 * 1024;

/**
 * The gRPC port's HTTP/2 server (docs/decisions.md, "gRPC"). The evaluation RPCs that are answered on
 * every call of a hot path (`methods`) are read and answered here, straight from `node:http2`: grpc-js
 * costs about as much per call as the whole REST hot path. Every other stream (the management API,
 * streams, reflection, compressed messages) is passed on, headers, messages and trailers, to grpc-js
 * over an in-memory HTTP/2 connection of its own per client connection, with the caller's address in
 * `PEER_HEADER` (a client's own is dropped; grpc-js has no other connection than the front's).
 */
export async function startFront(options: FrontOptions): Promise<Front> {
  const server = options.tls
    ? http2.createSecureServer({ cert: options.tls.cert, key: options.tls.key })
    : http2.createServer();
  const sessions = new Set<ServerHttp2Session>();
  const backends = new WeakMap<ServerHttp2Session, http2.ClientHttp2Session>();

  const backendOf = (session: ServerHttp2Session) => {
    let backend = backends.get(session);
    if (!backend || backend.closed || backend.destroyed) {
      const [near, far] = duplexPair();
      options.inject(far);
      backend = http2.connect('http://ensign.internal', { createConnection: () => near });
      backend.on('error', () => {});
      backends.set(session, backend);
    }
    return backend;
  };

  server.on('session', (session) => {
    sessions.add(session);
    session.on('error', () => {});
    session.once('close', () => {
      sessions.delete(session);
      backends.get(session)?.close();
    });
  });

  server.on('stream', (stream, headers) => {
    stream.on('error', () => {});
    const method = options.methods.get(headers[':path'] as string);
    const type = headers['content-type'];
    const encoding = headers['grpc-encoding'];
    if (
      method &&
      (type === 'application/grpc' || type === 'application/grpc+proto') &&
      (encoding === undefined || encoding === 'identity')
    ) {
      answer(stream, headers, method, options.statusOf);
    } else pass(stream, headers, backendOf(stream.session as ServerHttp2Session));
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });

  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.close();
      }),
    destroy: () => {
      for (const session of sessions) session.destroy();
    },
  };
}

const ANSWER_HEADERS = { ':status': 200, 'content-type': 'application/grpc+proto' };
const OK_TRAILERS = { 'grpc-status': '0' };
const ANSWER_OPTIONS = { waitForTrailers: true };

/**
 * A unary call answered here: one length-prefixed message in, one out, `grpc-status` in the trailers.
 * The method runs as soon as the message is complete (it comes with END_STREAM in practice).
 */
function answer(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  method: FrontMethod,
  statusOf: FrontOptions['statusOf'],
): void {
  let chunks: Buffer[] | undefined;
  let body: Buffer | undefined;
  let size = 0;
  let done = false;
  const fail = (error: unknown) => {
    const { code, details } = statusOf(error);
    if (stream.closed || stream.headersSent) return;
    stream.respond(
      {
        ':status': 200,
        'content-type': 'application/grpc+proto',
        'grpc-status': String(code),
        'grpc-message': percentEncoded(details),
      },
      { endStream: true },
    );
  };
  const send = (message: Buffer) => {
    if (stream.closed) return;
    const frame = Buffer.allocUnsafe(5 + message.length);
    frame[0] = 0;
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    stream.respond(ANSWER_HEADERS, ANSWER_OPTIONS);
    stream.once('wantTrailers', () => stream.sendTrailers(OK_TRAILERS));
    stream.end(frame);
  };
  const run = (message: Buffer) => {
    done = true;
    let answered: Buffer | Promise<Buffer>;
    try {
      answered = method(message, headers, peerOf(stream));
    } catch (error) {
      return fail(error);
    }
    if (answered instanceof Promise) answered.then(send, fail);
    else send(answered);
  };
  stream.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > MAX_MESSAGE + 5) {
      done = true;
      return fail(new FrontStatus(8, `received message larger than max (${size - 5} vs. ${MAX_MESSAGE})`));
    }
    if (body === undefined && chunks === undefined) body = chunk;
    else {
      chunks ??= [body!];
      chunks.push(chunk);
      body = undefined;
    }
    const whole = body ?? Buffer.concat(chunks!);
    if (whole.length >= 5 && whole[0] === 0 && whole.readUInt32BE(1) === whole.length - 5) run(whole.subarray(5));
  });
  stream.once('end', () => {
    if (done) return;
    done = true;
    fail(new FrontStatus(13, 'expected one uncompressed message'));
  });
}

/** A call for grpc-js: its headers (with the caller's address), messages both ways, its trailers. */
function pass(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, backend: http2.ClientHttp2Session): void {
  const forwarded: http2.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === ':scheme' || name === ':authority' || name === PEER_HEADER) continue;
    forwarded[name] = value;
  }
  forwarded[PEER_HEADER] = peerOf(stream);
  let request: http2.ClientHttp2Stream;
  try {
    request = backend.request(forwarded);
  } catch {
    stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
    return;
  }
  request.on('error', () => {
    if (!stream.closed) stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
  });
  stream.on('close', () => {
    if (!request.closed) request.close(stream.rstCode || http2.constants.NGHTTP2_CANCEL);
  });
  stream.pipe(request);
  let trailers: http2.IncomingHttpHeaders = {};
  request.on('trailers', (received) => {
    trailers = received;
  });
  request.once('response', (received) => {
    if (stream.closed) return;
    const response: http2.OutgoingHttpHeaders = { ...received };
    // Trailers-only: the status came with the headers, there is no message.
    if (received['grpc-status'] !== undefined) {
      stream.respond(response, { endStream: true });
      return;
    }
    stream.respond(response, { waitForTrailers: true });
    stream.once('wantTrailers', () => {
      const sent: http2.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(trailers)) if (!name.startsWith(':')) sent[name] = value;
      stream.sendTrailers(sent);
    });
    request.pipe(stream);
  });
}

const peers = new WeakMap<object, string>();

/** The caller's address as grpc-js writes a peer (`127.0.0.1:50000`, `[::1]:50000`), worked out once per connection. */
function peerOf(stream: ServerHttp2Stream): string {
  const session = stream.session;
  if (!session) return '';
  let peer = peers.get(session);
  if (peer === undefined) {
    const { remoteAddress: address = '', remotePort: port } = session.socket;
    peer = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
    peers.set(session, peer);
  }
  return peer;
}

/** grpc-message's encoding: bytes outside printable ASCII, and '%', percent-encoded (UTF-8). */
function percentEncoded(text: string): string {
  if (!/[^\x20-\x24\x26-\x7e]/.test(text)) return text;
  let encoded = '';
  for (const byte of Buffer.from(text)) {
    encoded +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** A status the front gives a call that never reached its method. */
export class FrontStatus extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
