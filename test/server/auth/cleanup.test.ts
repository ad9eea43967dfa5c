import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/index.js';
import { AuthStore } from '../../../server/auth/store.js';
import { resolveAuthSettings } from '../../../server/auth/settings.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';

describe('cleanup schedules', () => {
  it("clean up the enabled session methods by default, hourly with 30 minutes' grace, and tokens only when configured", () => {
    const settings = resolveAuthSettings({
      session: { domain: 'flags.example.com' },
      methods: {
        token: { enabled: true },
        oidc: { enabled: true, cleanup: { interval: '10m', grace_period: '1m' } },
        github: { enabled: true, client_id: 'a', client_secret: 'b', redirect_address: 'https://flags.example.com' },
      },
    });
    expect(settings.cleanup).toEqual([
      { method: 'METHOD_OIDC', intervalMs: 600_000, graceMs: 60_000 },
      { method: 'METHOD_GITHUB', intervalMs: 3_600_000, graceMs: 1_800_000 },
    ]);
    const withTokens = resolveAuthSettings({ methods: { token: { enabled: true, cleanup: { grace_period: '24h' } } } });
    expect(withTokens.cleanup).toEqual([{ method: 'METHOD_TOKEN', intervalMs: 3_600_000, graceMs: 86_400_000 }]);
  });
});

describe.each(dialects)('purging expired authentications on %s', (dialect) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let store: AuthStore;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(dialect);
    database = await openDatabase(testDatabase.url);
    store = new AuthStore(database);
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it("deletes only the method's authentications that expired before the cut-off", async () => {
    const make = (method: 'METHOD_OIDC' | 'METHOD_TOKEN', expiresAt?: string) =>
      store.create({ method, metadata: {}, expiresAt });
    const old = await make('METHOD_OIDC', '2020-01-01T00:00:00.000000Z');
    const recent = await make('METHOD_OIDC', '2020-01-01T02:00:00.000000Z');
    const never = await make('METHOD_OIDC');
    const oldToken = await make('METHOD_TOKEN', '2020-01-01T00:00:00.000000Z');

    expect(await store.purgeExpired('METHOD_OIDC', '2020-01-01T01:00:00.000000Z')).toBe(1);
    expect(await store.byId(old.authentication.id)).toBeUndefined();
    for (const kept of [recent, never, oldToken]) expect(await store.byId(kept.authentication.id)).toBeDefined();
  });
});
