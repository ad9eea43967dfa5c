import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TJsDisplay, TJsState, TSurvey } from '../../../../domain/surveys/types.js';
import { filter } from '../../../../widget/core/filter.js';
import { product, survey } from './helpers.js';

const DAY = 86_400_000;
const NOW = new Date('2024-06-10T12:00:00.000Z').getTime();
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

const state = (surveys: TSurvey[], displays: TJsDisplay[] | undefined, recontactDays: number | null = 7): TJsState => ({
  surveys,
  noCodeActionClasses: [],
  product: product({ recontactDays: recontactDays as number }),
  attributes: {},
  displays,
});
const ids = (s: TJsState) => s.surveys.map((x) => x.id);

describe('display filtering for anonymous visitors', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('keeps everything when there is no display history (identified users)', () => {
    const s = state([survey('a', { displayOption: 'displayOnce' })], undefined);
    expect(filter(s)).toBe(s);
  });

  it('displayOnce hides a survey once shown; displayMultiple once responded; respondMultiple never', () => {
    const surveys = [
      survey('once', { displayOption: 'displayOnce', recontactDays: 0 }),
      survey('multi', { displayOption: 'displayMultiple', recontactDays: 0 }),
      survey('multiDone', { displayOption: 'displayMultiple', recontactDays: 0 }),
      survey('respond', { displayOption: 'respondMultiple', recontactDays: 0 }),
    ];
    const displays = [
      { surveyId: 'once', createdAt: ago(30), responded: false },
      { surveyId: 'multi', createdAt: ago(30), responded: false },
      { surveyId: 'multiDone', createdAt: ago(30), responded: true },
      { surveyId: 'respond', createdAt: ago(30), responded: true },
    ];
    expect(ids(filter(state(surveys, displays)))).toEqual(['multi', 'respond']);
  });

  it('throws Invalid displayOption for any other value', () => {
    const bad = survey('x', { displayOption: 'sometimes' as TSurvey['displayOption'] });
    expect(() => filter(state([bad], []))).toThrow('Invalid displayOption');
  });

  it("applies a survey's own recontact days against its first local display", () => {
    const surveys = [
      survey('a', { recontactDays: 3 }),
      survey('b', { recontactDays: 3 }),
      survey('c', { recontactDays: 3 }),
    ];
    const displays = [
      { surveyId: 'a', createdAt: ago(3), responded: false },
      { surveyId: 'b', createdAt: ago(2.9), responded: false },
    ];
    expect(ids(filter(state(surveys, displays)))).toEqual(['a', 'c']);
  });

  it("otherwise applies the product's recontact days against the latest display of any survey", () => {
    const surveys = [survey('a'), survey('b')];
    expect(ids(filter(state(surveys, [{ surveyId: 'a', createdAt: ago(6.9), responded: true }])))).toEqual([]);
    expect(ids(filter(state(surveys, [{ surveyId: 'a', createdAt: ago(7), responded: true }])))).toEqual(['a', 'b']);
    expect(ids(filter(state(surveys, [{ surveyId: 'a', createdAt: ago(0), responded: true }], null)))).toEqual([
      'a',
      'b',
    ]);
  });

  it('a survey with recontactDays 0 is never hidden by recontact', () => {
    const surveys = [survey('a', { recontactDays: 0 })];
    expect(ids(filter(state(surveys, [{ surveyId: 'a', createdAt: ago(0), responded: true }])))).toEqual(['a']);
  });
});
