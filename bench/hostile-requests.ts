// Requests built to amplify (issue: OFREP bulk and /evaluate/v1/batch amplification, and the survey
// client's action flood), against Ensign in a child process, a fresh one per case: the answer's status
// and bytes, the time it took and the server's peak resident memory (VmHWM) before and after.
import { readFileSync } from 'node:fs';
import { serveIfChild, startServer } from './support/servers.js';

const ENVIRONMENT = 'clensigndemoenvironment0';

function peakRssMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, bytes, ms: performance.now() - started };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

async function amplification(name: string, path: string, body: unknown, headers?: Record<string, string>) {
  const server = await startServer('ensign', import.meta.url);
  try {
    const before = peakRssMb(server.pid);
    const sent = JSON.stringify(body).length;
    const answer = await post(`${server.url}${path}`, body, headers);
    console.log(
      `${name}: request ${mb(sent)}, status ${answer.status}, answer ${mb(answer.bytes)}, ${answer.ms.toFixed(0)} ms, ` +
        `peak RSS ${before.toFixed(0)} -> ${peakRssMb(server.pid).toFixed(0)} MB`,
    );
  } finally {
    server.stop();
  }
}

async function syncMedianMs(url: string, rounds = 30): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await (await fetch(`${url}/api/v1/client/${ENVIRONMENT}/in-app/sync/visitor`)).arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

async function actionFlood(count: number, nameBytes: number) {
  const server = await startServer('ensign', import.meta.url);
  try {
    await syncMedianMs(server.url, 5);
    const before = await syncMedianMs(server.url);
    const statuses = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const name = `${i}`.padEnd(nameBytes, 'x');
      const { status } = await post(`${server.url}/api/v1/client/${ENVIRONMENT}/actions`, { userId: 'flood', name });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const after = await syncMedianMs(server.url);
    console.log(
      `${count} actions of ${nameBytes / 1000} KB names (statuses ${JSON.stringify(Object.fromEntries(statuses))}): ` +
        `sync median ${before.toFixed(1)} ms -> ${after.toFixed(1)} ms`,
    );
  } finally {
    server.stop();
  }
}

if (!(await serveIfChild())) {
  await amplification('OFREP bulk, one key 40,000 times', '/ofrep/v1/evaluate/flags', {
    context: { targetingKey: 'e', flags: Array(40_000).fill('flag_001').join(',') },
  });
  await amplification('/evaluate/v1/batch, 20,000 items', '/evaluate/v1/batch', {
    requests: Array.from({ length: 20_000 }, () => ({ flagKey: 'flag_001', entityId: 'e' })),
  });
  await amplification('/evaluate/v1/batch, 15,000 missing namespaces', '/evaluate/v1/batch', {
    requests: Array.from({ length: 15_000 }, (_, i) => ({ namespaceKey: `m${i}`, flagKey: 'f', entityId: 'e' })),
  });
  await actionFlood(150, 200_000);
}
