import { request } from 'node:http';
import { expect, startServer, test } from './fixtures.js';

/** A request on a connection of its own, so that node:cluster may hand it to any worker. */
function onNewConnection(url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const method = body === undefined ? 'GET' : 'POST';
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent: false, headers: { connection: 'close' } }, (incoming) => {
      let text = '';
      incoming.on('data', (chunk) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, json: JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test("with --workers 2, a write through one worker shows in every worker's evaluations and the analytics add up", async () => {
  const server = await startServer(['--workers', '2']);
  try {
    await expect.poll(() => server.output()).toContain('ensign: 2 workers listening');
    const api = (path: string, method: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method, body: JSON.stringify(body) });
    expect(
      (
        await api('/api/v1/namespaces/default/flags', 'POST', {
          key: 'shared',
          name: 'Shared',
          type: 'BOOLEAN_FLAG_TYPE',
          enabled: false,
        })
      ).status,
    ).toBe(200);

    const evaluations = async () => {
      const answers = [];
      // node:cluster deals new connections round-robin: ten of them reach both workers.
      for (let i = 0; i < 10; i++)
        answers.push(
          await onNewConnection(`${server.url}/evaluate/v1/boolean`, { flagKey: 'shared', entityId: `e${i}` }),
        );
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      return answers.map((answer) => answer.json.enabled);
    };
    // Both workers now hold the namespace's snapshot in memory.
    expect(await evaluations()).toEqual(Array(10).fill(false));

    expect(
      (await api('/api/v1/namespaces/default/flags/shared', 'PUT', { name: 'Shared', enabled: true })).status,
    ).toBe(200);
    // The write reaches the other worker through the primary: poll until both answer with it.
    await expect.poll(evaluations).toEqual(Array(10).fill(true));

    // Each worker counts its own evaluations and flushes them; the series holds all twenty.
    const from = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const to = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const counted = async () => {
      const response = await fetch(
        `${server.url}/internal/v1/analytics/namespaces/default/flags/shared?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      );
      const { values } = (await response.json()) as { values: number[] };
      return values.reduce((sum, value) => sum + value, 0);
    };
    await expect.poll(counted, { timeout: 10_000 }).toBe(20);
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(server.output()).not.toMatch(/"level":5\d/);
});

test('with --workers 2, a survey written through the management API is in the next sync of every worker', async () => {
  const server = await startServer(['--workers', '2']);
  try {
    await expect.poll(() => server.output()).toContain('ensign: 2 workers listening');
    const environment = 'clensigndemoenvironment0';
    const syncs = async () => {
      const names = [];
      // Ten new connections reach both workers, each answering from the sync it keeps.
      for (let i = 0; i < 10; i++) {
        const answer = await onNewConnection(`${server.url}/api/v1/client/${environment}/in-app/sync`);
        expect(answer.status).toBe(200);
        const { surveys } = answer.json.data as { surveys: { name: string }[] };
        names.push(surveys.some((survey) => survey.name === 'Added through the API'));
      }
      return names;
    };
    await expect.poll(syncs).toEqual(Array(10).fill(false));
    const created = await fetch(`${server.url}/api/v1/management/surveys`, {
      method: 'POST',
      headers: { 'x-api-key': 'ensign-demo-api-key-0000', 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Added through the API',
        triggers: ['New Session'],
        questions: [{ id: 'q', type: 'openText', headline: 'Why?', required: true }],
      }),
    });
    expect(created.status).toBe(200);
    // The write reaches the other worker through the primary: poll until both answer with it.
    await expect.poll(syncs).toEqual(Array(10).fill(true));
  } finally {
    expect(await server.stop()).toBe(0);
  }
});
