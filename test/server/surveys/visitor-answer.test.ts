import { describe, expect, it } from 'vitest';
import type { TSurvey } from '../../../domain/surveys/types.js';
import { type EnvironmentState, KEPT_ANSWERS, visitorAnswer } from '../../../server/surveys/sync.js';

// An identified visitor's answer is copied together from kept parts, and kept for the next visitor
// who sees the same surveys (server/surveys/sync.ts).

const surveys = Array.from({ length: 20 }, (_, i) => ({ id: `survey-${i}`, name: `Survey ${i}` }));
const state = () =>
  ({
    parts: {
      surveys: new Map(surveys.map((survey) => [survey.id, Buffer.from(JSON.stringify(survey))])),
      closing: Buffer.from('],"noCodeActionClasses":[],"product":{"id":"p"}'),
    },
    answers: new Map(),
  }) as unknown as EnvironmentState;
const expected = (seen: typeof surveys, person?: object) => ({
  data: { surveys: seen, noCodeActionClasses: [], product: { id: 'p' }, ...(person ? { person } : {}) },
});
const answer = (kept: EnvironmentState, seen: typeof surveys, person?: object) =>
  JSON.parse(visitorAnswer(kept, seen as unknown as TSurvey[], person).toString('utf8'));

describe("an identified visitor's answer", () => {
  it('is the JSON of the surveys the visitor sees, in their order, with the person when asked', () => {
    const kept = state();
    expect(answer(kept, [])).toEqual(expected([]));
    expect(answer(kept, [surveys[3], surveys[1]])).toEqual(expected([surveys[3], surveys[1]]));
    const person = { id: 'person', userId: 'ada', attributes: { plan: 'pro' } };
    expect(answer(kept, [surveys[1]], person)).toEqual(expected([surveys[1]], person));
  });

  it('is kept per set of surveys, never with a person, up to KEPT_ANSWERS sets', () => {
    const kept = state();
    const first = visitorAnswer(kept, [surveys[0], surveys[1]] as unknown as TSurvey[]);
    expect(visitorAnswer(kept, [surveys[0], surveys[1]] as unknown as TSurvey[])).toBe(first);
    expect(answer(kept, [surveys[1], surveys[0]])).toEqual(expected([surveys[1], surveys[0]]));
    answer(kept, [surveys[0]], { id: 'person' });
    expect(kept.answers.size).toBe(2);

    for (let i = 0; i < 2 * KEPT_ANSWERS; i++)
      expect(answer(kept, [surveys[i % 20]])).toEqual(expected([surveys[i % 20]]));
    expect(kept.answers.size).toBe(KEPT_ANSWERS);
    expect(answer(kept, surveys.slice(5, 9))).toEqual(expected(surveys.slice(5, 9)));
  });
});
