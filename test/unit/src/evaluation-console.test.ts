import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEvaluation } from '../../../domain/evaluation/index';
import {
  compareWithServer,
  curlCommand,
  evaluationPath,
  isContextOrEmpty,
  newEntityId,
  parseContext,
  snapshotPath,
} from '../../../src/features/evaluation-console/evaluation';

const variant = (
  change: Partial<Extract<AnyEvaluation, { type: 'VARIANT_EVALUATION_RESPONSE_TYPE' }>['variant']> = {},
): AnyEvaluation => ({
  type: 'VARIANT_EVALUATION_RESPONSE_TYPE',
  variant: {
    flagKey: 'f',
    match: true,
    reason: 'MATCH_EVALUATION_REASON',
    variantKey: 'blue',
    variantAttachment: '',
    segmentKeys: ['a', 'b'],
    ...change,
  },
});

const boolean = (enabled: boolean, segmentKeys: string[] = []): AnyEvaluation => ({
  type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE',
  boolean: { flagKey: 'f', enabled, reason: 'MATCH_EVALUATION_REASON', segmentKeys },
});

describe('context', () => {
  it('accepts empty text or a JSON object of strings', () => {
    for (const text of ['', '  ', '{}', '{"plan": "pro", "region": "eu"}']) expect(isContextOrEmpty(text)).toBe(true);
    for (const text of ['{"age": 3}', '["a"]', 'null', '"s"', '{', '{"a": {"b": "c"}}'])
      expect(isContextOrEmpty(text)).toBe(false);
  });

  it('parses empty text as no context', () => {
    expect(parseContext(' ')).toEqual({});
    expect(parseContext('{"plan":"pro"}')).toEqual({ plan: 'pro' });
  });
});

describe('request', () => {
  it('picks the endpoint by flag type', () => {
    expect(evaluationPath('VARIANT_FLAG_TYPE')).toBe('/evaluate/v1/variant');
    expect(evaluationPath('BOOLEAN_FLAG_TYPE')).toBe('/evaluate/v1/boolean');
    expect(snapshotPath('my ns')).toBe('/internal/v1/evaluation/snapshot/namespace/my%20ns');
  });

  it('writes a curl command that a shell reads back into the exact request', () => {
    const body = {
      namespaceKey: 'default',
      flagKey: 'f',
      entityId: "O'Brien",
      context: { note: `it's "quoted" $HOME \\ ;` },
    };
    const command = curlCommand('http://127.0.0.1:8080/evaluate/v1/variant', body);
    expect(command).toBe(
      `curl -X POST 'http://127.0.0.1:8080/evaluate/v1/variant' -H 'Content-Type: application/json' -d '${JSON.stringify(body).replaceAll("'", `'\\''`)}'`,
    );
    // The shell splits it into curl's arguments unchanged.
    const words = JSON.parse(
      execFileSync('sh', [
        '-c',
        `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${command.slice('curl '.length)}`,
      ]).toString(),
    );
    expect(words).toEqual([
      '-X',
      'POST',
      'http://127.0.0.1:8080/evaluate/v1/variant',
      '-H',
      'Content-Type: application/json',
      '-d',
      JSON.stringify(body),
    ]);
  });
});

describe('comparison with the server', () => {
  it('agrees on the same variant answer, segment keys in any order', () => {
    expect(
      compareWithServer(variant(), {
        flagKey: 'f',
        match: true,
        reason: 'MATCH_EVALUATION_REASON',
        variantKey: 'blue',
        segmentKeys: ['b', 'a'],
      }),
    ).toEqual([]);
  });

  it('names each field that differs', () => {
    expect(
      compareWithServer(variant(), {
        flagKey: 'f',
        match: false,
        reason: 'DEFAULT_EVALUATION_REASON',
        variantKey: 'red',
        segmentKeys: [],
      }),
    ).toEqual([
      { field: 'match', console: 'true', server: 'false' },
      { field: 'variant key', console: 'blue', server: 'red' },
      { field: 'reason', console: 'MATCH_EVALUATION_REASON', server: 'DEFAULT_EVALUATION_REASON' },
      { field: 'segment keys', console: 'a, b', server: '' },
    ]);
  });

  it('compares boolean answers, and segment keys only when the server sends them', () => {
    expect(
      compareWithServer(boolean(true, ['s']), { flagKey: 'f', enabled: true, reason: 'MATCH_EVALUATION_REASON' }),
    ).toEqual([]);
    expect(
      compareWithServer(boolean(true), {
        flagKey: 'f',
        enabled: false,
        reason: 'MATCH_EVALUATION_REASON',
        segmentKeys: [],
      }),
    ).toEqual([{ field: 'enabled', console: 'true', server: 'false' }]);
  });
});

describe('entity id', () => {
  afterEach(() => vi.unstubAllGlobals());
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('is a random UUID v4', () => {
    expect(newEntityId()).toMatch(UUID);
    expect(newEntityId()).not.toBe(newEntityId());
  });

  it('is still a UUID v4 outside a secure context (no randomUUID)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => real.getRandomValues(bytes) });
    expect(newEntityId()).toMatch(UUID);
  });
});
