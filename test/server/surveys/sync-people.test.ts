import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { CLIENT, startSurveyApp, type SurveyTestApp } from './support.js';

// The identified sync makes a person of every new user id: that is a survey write, limited as the others are,
// and an environment holds a bounded number of people. Over real HTTP, so that the fast
// path, which answers known visitors, is part of it.

async function startListening(dialect: (typeof dialects)[number], configure: Parameters<typeof startSurveyApp>[1]) {
  const t = await startSurveyApp(dialect, configure);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  // The first sync reads the environment through Fastify; later ones find it kept.
  expect((await fetch(`${base}${CLIENT}/in-app/sync`)).status).toBe(200);
  return { t, base };
}

async function statusesOf(base: string, userIds: string[]): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (const userId of userIds) {
    const { status } = await fetch(`${base}${CLIENT}/in-app/sync/${userId}?version=1.6.5`);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return statuses;
}

const peopleOf = async (t: SurveyTestApp) => (await t.management('GET', '/people')).body.data.length;

describe.each(dialects)('people made by the identified sync on %s', (dialect) => {
  let limited: { t: SurveyTestApp; base: string };
  let capped: { t: SurveyTestApp; base: string };
  beforeAll(async () => {
    limited = await startListening(dialect, (config) => {
      config.rateLimits.surveyWrites = 5;
    });
    capped = await startListening(dialect, (config) => {
      config.surveys.maxPeople = 3;
    });
  });
  afterAll(async () => {
    await limited?.t.close();
    await capped?.t.close();
  });

  it('counts a sync that creates a person as a survey write, and never one of a known visitor', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `new-visitor-${i}`);
    expect(await statusesOf(limited.base, ids)).toEqual({ 200: 5, 429: 55 });
    expect(await peopleOf(limited.t)).toBe(5);
    // The five known visitors sync as often as they like, past the limit.
    expect(await statusesOf(limited.base, [...ids.slice(0, 5), ...ids.slice(0, 5), ...ids.slice(0, 5)])).toEqual({
      200: 15,
    });
  });

  it('refuses a new visitor once the environment holds surveys.max_people, naming the limit', async () => {
    expect(await statusesOf(capped.base, ['p1', 'p2', 'p3', 'p4', 'p5'])).toEqual({ 200: 3, 403: 2 });
    const refused = await fetch(`${capped.base}${CLIENT}/in-app/sync/p6`);
    expect(await refused.json()).toMatchObject({
      code: 'forbidden',
      message: 'The environment holds at most 3 people',
    });
    // The other routes that make people hold to the same limit.
    const person = await capped.t.request('POST', `${CLIENT}/people/p7`, { attributes: {} });
    expect(person.status).toBe(403);
    expect(await peopleOf(capped.t)).toBe(3);
    expect(await statusesOf(capped.base, ['p1', 'p2', 'p3'])).toEqual({ 200: 3 });
  });
});
