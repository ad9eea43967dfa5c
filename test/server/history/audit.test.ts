import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigFile } from '../../../server/config/index.js';
import { ConfigError } from '../../../server/config/errors.js';
import { client, type Call } from '../flipt/client.js';
import { dialects, startTestApp, type TestApp } from '../support.js';

const SECRET = 'webhook-secret';

interface Received {
  body: string;
  signature: string | undefined;
}

/** A webhook receiver on loopback; `down` makes it answer 503 to everything. */
async function receiver() {
  const received: Received[] = [];
  let down = false;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (down) {
        response.writeHead(503).end();
        return;
      }
      received.push({ body, signature: request.headers['x-flipt-webhook-signature'] as string | undefined });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`,
    received,
    setDown: (value: boolean) => (down = value),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Waits (without a time limit of its own: the test's timeout applies) until `ready` holds. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe.each(dialects)('audit sinks on %s', (dialect) => {
  let t: TestApp;
  let call: Call;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const dir = mkdtempSync(join(tmpdir(), 'ensign-audit-'));
  const logFile = join(dir, 'audit.log');

  beforeAll(async () => {
    hook = await receiver();
    t = await startTestApp(dialect, (config) => {
      config.audit.webhook = {
        ...config.audit.webhook,
        enabled: true,
        url: hook.url,
        signingSecret: SECRET,
        maxBackoffMs: 600,
      };
      config.audit.log = { enabled: true, file: logFile, encoding: 'json' };
    });
    call = client(t.app);
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const events = () => hook.received.map((request) => JSON.parse(request.body));

  it('sends one signed, Flipt-shaped event for every kind of change, and logs the same', async () => {
    const ok = async (method: string, url: string, body?: unknown) => {
      const answer = await call(method, url, body);
      expect(answer.status, `${method} ${url}: ${answer.text}`).toBe(200);
      return answer.body;
    };
    const ns = '/api/v1/namespaces/a';
    await ok('POST', '/api/v1/namespaces', { key: 'a', name: 'A' });
    await ok('PUT', '/api/v1/namespaces/a', { name: 'A2' });
    await ok('POST', `${ns}/flags`, { key: 'f', name: 'F', type: 'VARIANT_FLAG_TYPE' });
    await ok('PUT', `${ns}/flags/f`, { name: 'F2', enabled: true });
    const variant = await ok('POST', `${ns}/flags/f/variants`, { key: 'v' });
    await ok('PUT', `${ns}/flags/f/variants/${variant.id}`, { key: 'v', name: 'V' });
    await ok('POST', `${ns}/segments`, { key: 's', name: 'S', matchType: 'ALL_MATCH_TYPE' });
    await ok('PUT', `${ns}/segments/s`, { name: 'S2', matchType: 'ANY_MATCH_TYPE' });
    const constraint = await ok('POST', `${ns}/segments/s/constraints`, {
      type: 'STRING_COMPARISON_TYPE',
      property: 'p',
      operator: 'eq',
      value: '1',
    });
    await ok('PUT', `${ns}/segments/s/constraints/${constraint.id}`, {
      type: 'STRING_COMPARISON_TYPE',
      property: 'p',
      operator: 'neq',
      value: '1',
    });
    const rule1 = await ok('POST', `${ns}/flags/f/rules`, { segmentKey: 's', rank: 1 });
    const rule2 = await ok('POST', `${ns}/flags/f/rules`, { segmentKey: 's', rank: 2 });
    await ok('PUT', `${ns}/flags/f/rules/${rule1.id}`, { segmentKey: 's', segmentOperator: 'OR_SEGMENT_OPERATOR' });
    await ok('PUT', `${ns}/flags/f/rules/order`, { ruleIds: [rule2.id, rule1.id] });
    const distribution = await ok('POST', `${ns}/flags/f/rules/${rule1.id}/distributions`, {
      variantId: variant.id,
      rollout: 50,
    });
    await ok('PUT', `${ns}/flags/f/rules/${rule1.id}/distributions/${distribution.id}`, {
      variantId: variant.id,
      rollout: 70,
    });
    await ok('DELETE', `${ns}/flags/f/rules/${rule1.id}/distributions/${distribution.id}?variantId=${variant.id}`);
    const rollout1 = await ok('POST', `${ns}/flags/f/rollouts`, {
      rank: 1,
      threshold: { percentage: 10, value: true },
    });
    const rollout2 = await ok('POST', `${ns}/flags/f/rollouts`, { rank: 2, segment: { segmentKey: 's', value: true } });
    await ok('PUT', `${ns}/flags/f/rollouts/${rollout1.id}`, { threshold: { percentage: 20, value: true } });
    await ok('PUT', `${ns}/flags/f/rollouts/order`, { rolloutIds: [rollout2.id, rollout1.id] });
    await ok('DELETE', `${ns}/flags/f/rollouts/${rollout1.id}`);
    await ok('DELETE', `${ns}/flags/f/rollouts/${rollout2.id}`);
    await ok('DELETE', `${ns}/flags/f/rules/${rule1.id}`);
    await ok('DELETE', `${ns}/flags/f/rules/${rule2.id}`);
    await ok('DELETE', `${ns}/segments/s/constraints/${constraint.id}`);
    await ok('DELETE', `${ns}/segments/s`);
    await ok('DELETE', `${ns}/flags/f/variants/${variant.id}`);
    await ok('DELETE', `${ns}/flags/f`);
    await ok('DELETE', '/api/v1/namespaces/a');

    const expected = [
      'namespace:created',
      'namespace:updated',
      'flag:created',
      'flag:updated',
      'variant:created',
      'variant:updated',
      'segment:created',
      'segment:updated',
      'constraint:created',
      'constraint:updated',
      'rule:created',
      'rule:created',
      'rule:updated',
      'rule:updated',
      'distribution:created',
      'distribution:updated',
      'distribution:deleted',
      'rollout:created',
      'rollout:created',
      'rollout:updated',
      'rollout:updated',
      'rollout:deleted',
      'rollout:deleted',
      'rule:deleted',
      'rule:deleted',
      'constraint:deleted',
      'segment:deleted',
      'variant:deleted',
      'flag:deleted',
      'namespace:deleted',
    ];
    await until(() => hook.received.length >= expected.length);
    expect(events().map((event) => `${event.type}:${event.action}`)).toEqual(expected);
    for (const request of hook.received) {
      expect(request.signature).toBe(createHmac('sha256', SECRET).update(request.body).digest('hex'));
    }
    const [created, , flag] = events();
    expect(created).toEqual({
      version: '0.2',
      type: 'namespace',
      action: 'created',
      status: 'success',
      metadata: { actor: { authentication: 'none', ip: '127.0.0.1' } },
      payload: expect.objectContaining({ key: 'a', name: 'A', protected: false }),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
    });
    expect(flag.payload).toMatchObject({ key: 'f', namespace_key: 'a', type: 'VARIANT_FLAG_TYPE' });
    const reorder = events()[13];
    expect(reorder.payload).toEqual({ namespace_key: 'a', flag_key: 'f', rule_ids: [rule2.id, rule1.id] });

    await until(() => readFileSync(logFile, 'utf8').trim().split('\n').length >= expected.length);
    const logged = readFileSync(logFile, 'utf8').trim().split('\n');
    expect(logged).toEqual(hook.received.map((request) => request.body));
  });

  it("carries the payload fields Flipt 1.50-1.59 added: a flag's default variant, a rollout's id, a deleted rule's id", async () => {
    const ns = '/api/v1/namespaces/default';
    const ok = async (method: string, url: string, body?: unknown) => {
      const answer = await call(method, url, body);
      expect(answer.status, `${method} ${url}: ${answer.text}`).toBe(200);
      return answer.body;
    };
    await ok('POST', `${ns}/flags`, { key: 'payloads', name: 'Payloads', type: 'VARIANT_FLAG_TYPE' });
    const variant = await ok('POST', `${ns}/flags/payloads/variants`, { key: 'blue' });
    await ok('PUT', `${ns}/flags/payloads`, { name: 'Payloads', defaultVariantId: variant.id });
    await ok('POST', `${ns}/segments`, { key: 'payload-segment', name: 'S', matchType: 'ALL_MATCH_TYPE' });
    const rule = await ok('POST', `${ns}/flags/payloads/rules`, { segmentKey: 'payload-segment', rank: 1 });
    await ok('DELETE', `${ns}/flags/payloads/rules/${rule.id}`);
    await ok('POST', `${ns}/flags`, { key: 'payloads-bool', name: 'B', type: 'BOOLEAN_FLAG_TYPE' });
    const rollout = await ok('POST', `${ns}/flags/payloads-bool/rollouts`, {
      rank: 1,
      threshold: { percentage: 10, value: true },
    });
    await ok('DELETE', `${ns}/flags/payloads-bool/rollouts/${rollout.id}`);
    const find = (type: string, action: string, key: string) =>
      events().find(
        (event) => event.type === type && event.action === action && JSON.stringify(event.payload).includes(key),
      );
    await until(() => find('rollout', 'deleted', rollout.id) !== undefined);
    const updated = events().filter(
      (event) => event.type === 'flag' && event.action === 'updated' && event.payload.key === 'payloads',
    );
    expect(updated.at(-1).payload.default_variant).toMatchObject({ id: variant.id, key: 'blue' });
    expect(find('rollout', 'created', rollout.id)?.payload.id).toBe(rollout.id);
    expect(find('rollout', 'deleted', rollout.id)?.payload).toMatchObject({
      id: rollout.id,
      flag_key: 'payloads-bool',
    });
    expect(find('rule', 'deleted', rule.id)?.payload).toMatchObject({ id: rule.id, flag_key: 'payloads' });
  });

  it('sends what a receiver missed while it was down once it is back', async () => {
    const before = hook.received.length;
    hook.setDown(true);
    await call('POST', '/api/v1/namespaces', { key: 'later', name: 'Later' });
    await call('PUT', '/api/v1/namespaces/later', { name: 'Later 2' });
    hook.setDown(false);
    await until(() => hook.received.length >= before + 2);
    expect(
      events()
        .slice(before)
        .map((event) => `${event.payload.key} ${event.action}`),
    ).toEqual(['later created', 'later updated']);
  });
});

describe('audit config', () => {
  const load = (yaml: string) => parseConfigFile(yaml, 'config.yml');

  it("accepts Flipt's sinks, buffer and event filters", () => {
    expect(() =>
      load(
        'audit:\n  sinks:\n    log:\n      enabled: true\n      file: /tmp/a.log\n    webhook:\n      enabled: true\n      url: http://x\n      signing_secret: s\n      max_backoff_duration: 20s\n  buffer:\n    capacity: 10\n    flush_period: 5m\n  events:\n    - "flag:*"\n    - "*:deleted"\n',
      ),
    ).not.toThrow();
  });

  it("refuses what Flipt's validation refuses, naming the key", async () => {
    const { resolveConfig } = await import('../../../server/config/index.js');
    const withEnv = (env: Record<string, string>) => () => resolveConfig({}, env);
    expect(withEnv({ FLIPT_AUDIT_BUFFER_CAPACITY: '11' })).toThrow(
      new ConfigError('audit.buffer.capacity must be from 2 to 10 (got 11)'),
    );
    expect(withEnv({ FLIPT_AUDIT_BUFFER_FLUSH_PERIOD: '1m' })).toThrow(
      /audit.buffer.flush_period must be from 2m to 5m/,
    );
    expect(withEnv({ FLIPT_AUDIT_EVENTS: 'flag:* flag:*' })).toThrow(/"flag:\*" is given twice/);
    expect(withEnv({ FLIPT_AUDIT_EVENTS: 'flags:created' })).toThrow(/audit.events: "flags:created" must be noun:verb/);
    expect(withEnv({ FLIPT_AUDIT_SINKS_WEBHOOK_ENABLED: 'true' })).toThrow(/webhook needs url or templates/);
    expect(withEnv({ FLIPT_AUDIT_HISTORY_RETENTION: '1h' })).toThrow(/audit.history.retention must be at least 24h/);
    expect(() => load('audit:\n  sinks:\n    cloud:\n      enabled: true\n')).toThrow(/Flipt Cloud is not supported/);
  });
});
