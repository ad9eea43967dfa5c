import http2, { type IncomingHttpHeaders, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2';
import { duplexPair } from 'node:stream';

/**
 * A unary RPC answered by the front itself. `admit` checks the call from its headers alone (authentication)
 * before a byte of its body is read, and may throw to refuse it; `run` gets the request message's bytes and
 * what `admit` returned, and answers the response message's bytes (or a promise of them). A thrown error
 * becomes the call's status through `statusOf`.
 */
export interface FrontMethod<Admission = unknown> {
  admit(headers: IncomingHttpHeaders): Admission | Promise<Admission>;
  run(message: Buffer, headers: IncomingHttpHeaders, peer: string, admission: Admission): Buffer | Promise<Buffer>;
}

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
  /** A connection with no traffic this long is closed (tests shorten it). */
  idleSessionMs?: number;
  /** A call answered here whose message has not arrived this long after its last frame is cancelled. */
  idleStreamMs?: number;
}

export interface Front {
  port: number;
  /** Stops accepting connections and ends each session once its streams are done (GOAWAY). */
  close(): Promise<void>;
  /** Cuts the sessions still open. */
  destroy(): void;
}

/** At most this much of one request message is read on the front (grpc-js's default receive limit). */
export const MAX_MESSAGE = 4 * 1024 * 1024;
/** Streams one connection may have open at once: enough for any client's concurrency, far from HTTP/2's 2^32. */
export const MAX_CONCURRENT_STREAMS = 100;
const IDLE_SESSION_MS = 5 * 60_000;
const IDLE_STREAM_MS = 30_000;

/**
 * The gRPC port's HTTP/2 server (docs/decisions.md, "gRPC"). The evaluation RPCs that are answered on
 * every call of a hot path (`methods`) are read and answered here, straight from `node:http2`: grpc-js
 * costs about as much per call as the whole REST hot path. Every other stream (the management API,
 * streams, reflection, compressed messages) is passed on, headers, messages and trailers, to grpc-js
 * over an in-memory HTTP/2 connection of its own per client connection, with the caller's address in
 * `PEER_HEADER` (a client's own is dropped; grpc-js has no other connection than the front's).
 */
export async function startFront(options: FrontOptions): Promise<Front> {
  const settings = { maxConcurrentStreams: MAX_CONCURRENT_STREAMS };
  const server = options.tls
    ? http2.createSecureServer({ cert: options.tls.cert, key: options.tls.key, settings })
    : http2.createServer({ settings });
  // A connection with no traffic for this long is closed (a client's keepalive pings count as traffic).
  server.setTimeout(options.idleSessionMs ?? IDLE_SESSION_MS);
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
      answer(stream, headers, method, options.statusOf, options.idleStreamMs ?? IDLE_STREAM_MS);
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
 * A unary call answered here: admitted from its headers first, then one length-prefixed message in, one
 * out, `grpc-status` in the trailers. Nothing of the body is read before the call is admitted (the stream
 * stays paused, so HTTP/2 flow control holds the sender back); the method runs as soon as the message is
 * complete.
 */
function answer(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  method: FrontMethod,
  statusOf: FrontOptions['statusOf'],
  idleStreamMs: number,
): void {
  let done = false;
  const fail = (error: unknown) => {
    done = true;
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
    // Once the status is out, the rest of what the client sends is refused rather than read.
    if (!stream.readableEnded) setImmediate(() => stream.close(http2.constants.NGHTTP2_NO_ERROR));
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
  const run = (message: Buffer, admission: unknown) => {
    done = true;
    let answered: Buffer | Promise<Buffer>;
    try {
      answered = method.run(message, headers, peerOf(stream), admission);
    } catch (error) {
      return fail(error);
    }
    if (answered instanceof Promise) answered.then(send, fail);
    else send(answered);
  };
  const read = (admission: unknown) => {
    if (stream.closed) return;
    const reader = new MessageReader(MAX_MESSAGE);
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      let message: Buffer | undefined;
      try {
        message = reader.push(chunk);
      } catch (error) {
        return fail(error);
      }
      if (message) run(message, admission);
    });
    stream.once('end', () => {
      if (!done) fail(new FrontStatus(13, 'expected one uncompressed message'));
    });
  };
  stream.setTimeout(idleStreamMs, () => {
    if (!done) fail(new FrontStatus(4, 'no complete message arrived in time'));
  });
  let admitted: unknown;
  try {
    admitted = method.admit(headers);
  } catch (error) {
    fail(error);
    return;
  }
  if (admitted instanceof Promise) admitted.then(read, fail);
  else read(admitted);
}

/**
 * One gRPC request message from the DATA frames it comes in: the 5-byte prefix (compression flag, length)
 * is read once, a declared length over `limit` is refused before anything more is kept, and the frames are
 * joined once, when the message is whole. However small the frames, each byte is copied once.
 */
export class MessageReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private declared: number | undefined;
  /** Bytes copied so far in joining frames (for the tests: at most the message's size plus 5). */
  copied = 0;

  constructor(private readonly limit: number) {}

  /** Takes the next frame's bytes; gives the message once it is whole, or throws a FrontStatus. */
  push(chunk: Buffer): Buffer | undefined {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.declared === undefined) {
      if (this.size < 5) return undefined;
      const prefix = this.join(5);
      if (prefix[0] !== 0) throw new FrontStatus(13, 'expected one uncompressed message');
      this.declared = prefix.readUInt32BE(1);
      if (this.declared > this.limit) {
        throw new FrontStatus(8, `received message larger than max (${this.declared} vs. ${this.limit})`);
      }
    }
    const total = 5 + this.declared;
    if (this.size < total) return undefined;
    if (this.size > total) throw new FrontStatus(13, 'expected one uncompressed message');
    return this.join(total).subarray(5);
  }

  /** The first `length` bytes received: the first frame itself when it holds them, else the frames joined. */
  private join(length: number): Buffer {
    const first = this.chunks[0];
    if (first.length >= length) return first;
    const joined = Buffer.concat(this.chunks, this.size);
    this.copied += joined.length;
    this.chunks.length = 0;
    this.chunks.push(joined);
    return joined;
  }
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
