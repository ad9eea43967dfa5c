import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

const features = (enabled: boolean) => `version: "1.3"
namespace: default
flags:
  - key: flag_001
    name: Flag 1
    type: VARIANT_FLAG_TYPE
    enabled: ${enabled}
    variants:
      - key: variant_001
      - key: variant_002
        attachment: { color: blue }
    rules:
      - segment: everyone
        distributions:
          - variant: variant_001
            rollout: 50
          - variant: variant_002
            rollout: 50
segments:
  - key: everyone
    name: Everyone
    match_type: ALL_MATCH_TYPE
`;

/** Evaluation on the read-only `local` storage: a folder of features files. */
describe('evaluation on local storage', () => {
  let dir: string;
  let test: TestApp;
  let api: Api;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ensign-local-eval-'));
    writeFileSync(join(dir, 'features.yml'), features(true));
    test = await startTestApp('sqlite', (config) => {
      config.storage.type = 'local';
      config.storage.localPath = dir;
    });
    api = new Api(test.app);
  });
  afterAll(async () => {
    await test?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('evaluates the files, and again after they change', async () => {
    const evaluate = () =>
      api.ok('POST', '/evaluate/v1/variant', { flagKey: 'flag_001', entityId: 'some-fixed-entity-id' });
    expect(await evaluate()).toMatchObject({
      match: true,
      variantKey: 'variant_002',
      variantAttachment: '{"color":"blue"}',
    });
    writeFileSync(join(dir, 'features.yml'), features(false));
    let result = await evaluate();
    for (let i = 0; i < 100 && result.reason !== 'FLAG_DISABLED_EVALUATION_REASON'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      result = await evaluate();
    }
    expect(result).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON' });
  });

  it('serves the snapshot, and 404 for a namespace the files do not declare', async () => {
    const snapshot = await test.app.inject({
      method: 'GET',
      url: '/internal/v1/evaluation/snapshot/namespace/default',
    });
    expect(snapshot.statusCode).toBe(200);
    expect(snapshot.json().flags.map((f: { key: string }) => f.key)).toEqual(['flag_001']);
    const missing = await api.call('GET', '/internal/v1/evaluation/snapshot/namespace/elsewhere');
    expect(missing).toMatchObject({
      status: 404,
      body: { code: 5, message: 'getting flags: namespace "elsewhere" not found' },
    });
  });
});
