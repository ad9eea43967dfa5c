import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTION_NAME_LENGTH, MAX_CLIENT_ACTION_CLASSES } from '../../../server/surveys/store/index.js';
import { dialects } from '../support.js';
import { CLIENT, startSurveyApp, type SurveyTestApp } from '../surveys/support.js';

/** What anonymous visitors can add through the survey client API is bounded, so it cannot slow every sync. */
describe.each(dialects)('survey client writes on %s', (dialect) => {
  let t: SurveyTestApp;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
  });
  afterAll(() => t.close());

  const action = (name: string) => t.request('POST', `${CLIENT}/actions`, { userId: 'flooder', name });

  it(`refuses an action name longer than ${MAX_ACTION_NAME_LENGTH} characters`, async () => {
    expect((await action('n'.repeat(MAX_ACTION_NAME_LENGTH))).status).toBe(200);
    const long = await action('n'.repeat(MAX_ACTION_NAME_LENGTH + 1));
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual({ name: `must be at most ${MAX_ACTION_NAME_LENGTH} characters` });
  });

  it(`creates at most ${MAX_CLIENT_ACTION_CLASSES} action classes per environment from the client`, async () => {
    const before = (await t.management('GET', '/action-classes')).body.data as { type: string }[];
    const room = MAX_CLIENT_ACTION_CLASSES - before.filter((c) => c.type !== 'noCode').length;
    for (let i = 0; i < room; i++) expect((await action(`flood-${i}`)).status).toBe(200);
    const refused = await action('one too many');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `this environment holds ${MAX_CLIENT_ACTION_CLASSES} action classes created by clients already`,
    );
    // Actions of classes that exist are still recorded; the sync sends only the no-code classes.
    expect((await action('flood-0')).status).toBe(200);
    const sync = await t.request('GET', `${CLIENT}/in-app/sync`);
    expect(sync.body.data.noCodeActionClasses.every((c: { type: string }) => c.type === 'noCode')).toBe(true);
  });
});
