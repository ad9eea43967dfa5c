// Servers for the HTTP benchmarks, each started in a child process (the benchmark's own bundle,
// forked with the server's name as argument) so that autocannon does not share its event loop.
import { fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import { defaultConfig } from '../../server/config/index.js';
import { SYNC_ENVIRONMENT_ID, seedSyncEnvironment } from './sync-data.js';

/** The fixed answer of the bare server: the shape and size of a variant evaluation. */
const FIXED_ANSWER = {
  match: true,
  segmentKeys: ['premium'],
  reason: 'MATCH_EVALUATION_REASON',
  variantKey: 'variant_002',
  variantAttachment: '{"color":"blue"}',
  requestId: '6b1e6f5e-2c1f-4a55-9d5b-0d0c2f6c1a11',
  requestDurationMillis: 0.05,
  timestamp: '2026-01-01T00:00:00.123456Z',
  flagKey: 'flag_001',
};
const FIXED = JSON.stringify(FIXED_ANSWER);

export const EVALUATION_BODY = JSON.stringify({
  namespaceKey: 'default',
  flagKey: 'flag_001',
  entityId: 'some-fixed-entity-id',
  context: { plan: 'premium', seats: '12' },
});

type Call = (url: string, body: unknown) => Promise<{ id: string }>;

/** The data set: one variant flag with a constrained 50/50 rule. */
async function seedEnsign(call: Call): Promise<void> {
  const flags = '/api/v1/namespaces/default/flags';
  await call(flags, { key: 'flag_001', name: 'Flag 1', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const a = await call(`${flags}/flag_001/variants`, { key: 'variant_001' });
  const b = await call(`${flags}/flag_001/variants`, { key: 'variant_002', attachment: '{"color":"blue"}' });
  await call('/api/v1/namespaces/default/segments', { key: 'premium', name: 'Premium', matchType: 'ALL_MATCH_TYPE' });
  await call('/api/v1/namespaces/default/segments/premium/constraints', {
    type: 'STRING_COMPARISON_TYPE',
    property: 'plan',
    operator: 'eq',
    value: 'premium',
  });
  await call('/api/v1/namespaces/default/segments/premium/constraints', {
    type: 'NUMBER_COMPARISON_TYPE',
    property: 'seats',
    operator: 'gte',
    value: '10',
  });
  const rule = await call(`${flags}/flag_001/rules`, { segmentKey: 'premium', rank: 1 });
  await call(`${flags}/flag_001/rules/${rule.id}/distributions`, { variantId: a.id, rollout: 50 });
  await call(`${flags}/flag_001/rules/${rule.id}/distributions`, { variantId: b.id, rollout: 50 });
}

function temporaryDatabase(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return `file:${join(dir, 'ensign.db')}`;
}

/** Ensign in this (child) process, on a temporary SQLite database holding the data set; with gRPC, both ports. */
async function serveEnsign(metrics: boolean, grpc = false): Promise<number | { port: number; grpcPort: number }> {
  const config = defaultConfig();
  config.db.url = temporaryDatabase();
  config.metrics.enabled = metrics;
  const app = await buildApp(config);
  await seedEnsign(async (url, body) => {
    const response = await app.inject({ method: 'POST', url, payload: JSON.stringify(body) });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.body}`);
    return response.json();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  if (!grpc) return port;
  const { startGrpcServer } = await import('../../server/grpc/server.js');
  const server = await startGrpcServer(app.ensign, {
    host: '127.0.0.1',
    port: 0,
    protoDir: config.paths.proto,
    log: { info: () => {}, error: (error) => console.error(error) },
  });
  return { port, grpcPort: server.port };
}

/** Ensign in this (child) process holding the sync benchmark's environment (sync-data.ts), without the demo. */
async function serveEnsignSync(linked = false): Promise<number> {
  const config = defaultConfig();
  config.db.url = temporaryDatabase();
  config.surveys.demo = false;
  await seedSyncEnvironment(config.db.url);
  const app = await buildApp(config);
  await addSyncFlag(app, linked);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

/**
 * Adds a 50/50 flag to the sync environment's namespace and re-saves half its surveys (every other
 * one) through the console API; with `linked`, those surveys link variant b of the flag, so that an
 * identified sync evaluates it for each of them. Both servers of the comparison make the same writes:
 * only the links differ.
 */
async function addSyncFlag(app: Awaited<ReturnType<typeof buildApp>>, linked: boolean): Promise<void> {
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: object) => {
    const answer = await app.inject({ method, url, payload: body });
    if (answer.statusCode !== 200) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
    return answer.json();
  };
  const flags = '/api/v1/namespaces/default/flags';
  await call('POST', flags, { key: 'checkout', name: 'Checkout', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const variants = [
    await call('POST', `${flags}/checkout/variants`, { key: 'a' }),
    await call('POST', `${flags}/checkout/variants`, { key: 'b' }),
  ];
  await call('POST', '/api/v1/namespaces/default/segments', {
    key: 'everyone',
    name: 'Everyone',
    matchType: 'ALL_MATCH_TYPE',
  });
  const rule = await call('POST', `${flags}/checkout/rules`, { segmentKey: 'everyone', rank: 1 });
  for (const variant of variants)
    await call('POST', `${flags}/checkout/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 50 });
  const surveys = `/api/v1/namespaces/default/surveys/environments/${SYNC_ENVIRONMENT_ID}/surveys`;
  const listed = (await call('GET', surveys)).surveys as { id: string }[];
  for (const { id } of listed.filter((_, i) => i % 2 === 0)) {
    const {
      id: _id,
      createdAt: _c,
      updatedAt: _u,
      environmentId: _e,
      ...draft
    } = await call('GET', `${surveys}/${id}`);
    const link = linked ? { linkedFlag: { flagKey: 'checkout', variants: ['b'] } } : {};
    await call('PUT', `${surveys}/${id}`, { ...draft, ...link });
  }
}

/**
 * `ensign serve` from the build (dist/cli.js: run `npm run build` first) on a temporary SQLite database,
 * with the given extra arguments; resolves with its base URL and a stop function once it listens and its
 * output contains `ready` (when given).
 */
export async function startBuiltServer(args: string[], ready = ''): Promise<{ url: string; stop(): void }> {
  if (!existsSync('dist/cli.js')) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const child = spawn(
    process.execPath,
    ['dist/cli.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--db', temporaryDatabase(), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    let listening = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      listening ||= /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] ?? '';
      if (listening && output.includes(ready)) resolve(listening);
    });
    child.once('exit', (code) => reject(new Error(`ensign ${args.join(' ')} exited with ${code}: ${output}`)));
  });
  child.stdout.resume();
  return { url, stop: () => child.kill() };
}

/** `ensign serve --workers N` from the build, holding the data set. */
export async function startEnsignWorkers(workers: number): Promise<{ url: string; stop(): void }> {
  const server = await startBuiltServer(['--workers', String(workers)], `${workers} workers listening`);
  await seedEnsign(async (path, body) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`${path}: ${await response.text()}`);
    return (await response.json()) as { id: string };
  });
  return server;
}

async function serveBare(): Promise<number> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(FIXED);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** Bare node:http answering the bytes of the file BENCH_BODY_FILE names, as JSON (bench/sync: the anonymous sync's). */
async function serveBareBody(): Promise<number> {
  const body = readFileSync(process.env.BENCH_BODY_FILE!);
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/**
 * The least any evaluation server does per request, as a reference between the two: read and parse
 * the JSON body, answer JSON with a fresh request id and timestamp. No evaluation, no validation.
 */
async function serveMinimal(): Promise<number> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { flagKey } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { flagKey: string };
      const answer = JSON.stringify({
        ...FIXED_ANSWER,
        requestId: randomUUID(),
        timestamp: new Date().toISOString(),
        flagKey,
      });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

const SERVERS = {
  ensign: () => serveEnsign(true),
  'ensign-no-metrics': () => serveEnsign(false),
  'ensign-sync': () => serveEnsignSync(),
  'ensign-sync-linked': () => serveEnsignSync(true),
  'ensign-grpc': () => serveEnsign(true, true),
  bare: serveBare,
  'bare-body': serveBareBody,
  minimal: serveMinimal,
};
export type ServerName = keyof typeof SERVERS;

/** In the child: starts the server named by the argument and reports its port. True when this process is a child. */
export async function serveIfChild(): Promise<boolean> {
  const name = process.argv[2] as ServerName | undefined;
  if (!name || !(name in SERVERS)) return false;
  // The benchmark stopped (or was stopped) without stopping this server.
  process.on('disconnect', () => process.exit());
  process.send!(await SERVERS[name]());
  return true;
}

/**
 * User and system CPU seconds a process has used so far (Linux: /proc/PID/stat, in clock ticks of
 * 1/100 s). CPU per request is steadier than throughput on a machine that other work loads.
 */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** In the parent: starts a server in a child process; resolves with its base URL, its CPU seconds so far and a stop function. */
export async function startServer(
  name: ServerName,
  moduleUrl: string,
): Promise<{ url: string; pid: number; grpcPort?: number; cpuSeconds(): number; stop(): void }> {
  const child = fork(fileURLToPath(moduleUrl), [name], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ports = await new Promise<number | { port: number; grpcPort: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as number | { port: number; grpcPort: number }));
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code}`)));
  });
  const { port, grpcPort } = typeof ports === 'number' ? { port: ports, grpcPort: undefined } : ports;
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    grpcPort,
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    stop: () => child.kill(),
  };
}
