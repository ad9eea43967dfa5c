// A lean HTTP/2 load generator for unary gRPC calls, as autocannon is for HTTP/1.1: each connection
// writes pre-encoded frames (one HEADERS frame whose HPACK block uses no dynamic table, one DATA frame
// with END_STREAM) and reads only frame headers back. node:http2's client costs more CPU per call than
// the server it loads; on a 2-core machine that would measure the client. A call succeeded when its
// stream carried a message (DATA) before the headers that end it; a trailers-only answer (an error) or
// RST_STREAM fails the run. grpc-status is not decoded (that needs HPACK's dynamic table): the bench
// checks one call's status with a real client first.
import { connect, type Socket } from 'node:net';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
const DATA = 0;
const HEADERS = 1;
const RST_STREAM = 3;
const SETTINGS = 4;
const PING = 6;
const GOAWAY = 7;
const WINDOW_UPDATE = 8;
const END_STREAM = 1;
const END_HEADERS = 4;
const ACK = 1;
const MAX_WINDOW = 2 ** 31 - 1;

function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const out = Buffer.alloc(9 + payload.length);
  out.writeUIntBE(payload.length, 0, 3);
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(stream, 5);
  payload.copy(out, 9);
  return out;
}

/** A literal header field without indexing: name by static-table index, or a new name. */
function literal(name: number | string, value: string): Buffer {
  const text = Buffer.from(value);
  if (text.length > 126) throw new Error('header value too long for this encoder');
  if (typeof name === 'number') {
    const index = name < 15 ? Buffer.from([name]) : Buffer.from([15, name - 15]);
    return Buffer.concat([index, Buffer.from([text.length]), text]);
  }
  return Buffer.concat([Buffer.from([0, name.length]), Buffer.from(name), Buffer.from([text.length]), text]);
}

export interface H2LoadResult {
  requests: number;
  p50: number;
  p99: number;
}

/** `inFlight` unary calls to `path` kept going over `connections` connections for `seconds`. */
export async function h2Load(options: {
  port: number;
  path: string;
  /** The length-prefixed request message. */
  message: Buffer;
  connections: number;
  inFlight: number;
  seconds: number;
}): Promise<H2LoadResult> {
  const block = Buffer.concat([
    Buffer.from([0x83, 0x86]), // :method POST, :scheme http (static table)
    literal(4, options.path), // :path
    literal(1, `127.0.0.1:${options.port}`), // :authority
    literal(31, 'application/grpc'), // content-type
    literal('te', 'trailers'),
  ]);
  const latencies: number[] = [];
  const until = performance.now() + options.seconds * 1000;
  let failure: Error | undefined;
  const perConnection = Math.ceil(options.inFlight / options.connections);

  const run = () =>
    new Promise<void>((resolve) => {
      const socket: Socket = connect(options.port, '127.0.0.1');
      socket.setNoDelay(true);
      const started = new Map<number, number>();
      const answered = new Set<number>();
      let nextStream = 1;
      let sendWindow = 65_535;
      let received = 0;
      let pending: Buffer = Buffer.alloc(0);
      const queued: Buffer[] = [];
      let open = 0;
      const finish = () => {
        if (open === 0 || failure) {
          socket.destroy();
          resolve();
        }
      };
      const send = () => {
        while (queued.length && sendWindow >= options.message.length) {
          sendWindow -= options.message.length;
          socket.write(queued.shift()!);
        }
      };
      const start = () => {
        if (failure || performance.now() >= until) return finish();
        const id = nextStream;
        nextStream += 2;
        open++;
        started.set(id, performance.now());
        socket.write(frame(HEADERS, END_HEADERS, id, block));
        queued.push(frame(DATA, END_STREAM, id, options.message));
        send();
      };
      const end = (id: number) => {
        const at = started.get(id);
        if (at === undefined) return;
        started.delete(id);
        open--;
        if (!answered.delete(id)) failure ??= new Error(`stream ${id} ended without a message (an error status)`);
        latencies.push(performance.now() - at);
        start();
      };
      socket.on('connect', () => {
        const settings = Buffer.alloc(12);
        settings.writeUInt16BE(2, 0); // ENABLE_PUSH 0
        settings.writeUInt32BE(0, 2);
        settings.writeUInt16BE(4, 6); // INITIAL_WINDOW_SIZE
        settings.writeUInt32BE(MAX_WINDOW, 8);
        const increment = Buffer.alloc(4);
        increment.writeUInt32BE(MAX_WINDOW - 65_535);
        socket.write(Buffer.concat([PREFACE, frame(SETTINGS, 0, 0, settings), frame(WINDOW_UPDATE, 0, 0, increment)]));
        for (let i = 0; i < perConnection; i++) start();
      });
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        let at = 0;
        while (pending.length - at >= 9) {
          const length = pending.readUIntBE(at, 3);
          if (pending.length - at < 9 + length) break;
          const type = pending[at + 3];
          const flags = pending[at + 4];
          const stream = pending.readUInt32BE(at + 5) & MAX_WINDOW;
          const payload = pending.subarray(at + 9, at + 9 + length);
          at += 9 + length;
          if (type === DATA) {
            if (length > 0) answered.add(stream);
            received += length;
            if (flags & END_STREAM) end(stream);
          } else if (type === HEADERS) {
            if (flags & END_STREAM) end(stream);
          } else if (type === SETTINGS) {
            if (!(flags & ACK)) socket.write(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
          } else if (type === PING) {
            if (!(flags & ACK)) socket.write(frame(PING, ACK, 0, Buffer.from(payload)));
          } else if (type === WINDOW_UPDATE) {
            if (stream === 0) {
              sendWindow += payload.readUInt32BE(0) & MAX_WINDOW;
              send();
            }
          } else if (type === RST_STREAM) {
            failure ??= new Error(`stream ${stream} reset (code ${payload.readUInt32BE(0)})`);
          } else if (type === GOAWAY) {
            failure ??= new Error(`GOAWAY (code ${payload.readUInt32BE(4)})`);
          }
        }
        pending = at === pending.length ? Buffer.alloc(0) : pending.subarray(at);
        if (received > 2 ** 30) {
          const increment = Buffer.alloc(4);
          increment.writeUInt32BE(received);
          socket.write(frame(WINDOW_UPDATE, 0, 0, increment));
          received = 0;
        }
        if (failure) finish();
      });
      socket.on('error', (error) => {
        failure ??= error;
        resolve();
      });
      socket.on('close', () => resolve());
    });

  await Promise.all(Array.from({ length: options.connections }, run));
  if (failure) throw failure;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { requests: latencies.length, p50: at(0.5), p99: at(0.99) };
}
