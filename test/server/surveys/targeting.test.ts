import { describe, expect, it } from 'vitest';
import type { TProduct, TSurvey } from '../../../domain/surveys/types.js';
import { isPublicSurvey, surveysForVisitor, type Visitor } from '../../../server/surveys/targeting.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const product = { recontactDays: 7 } as TProduct;

const survey = (id: string, extra: Partial<TSurvey> = {}): TSurvey =>
  ({
    id,
    status: 'inProgress',
    type: 'web',
    displayOption: 'respondMultiple',
    recontactDays: null,
    segment: null,
    closeOnDate: null,
    linkedFlag: null,
    segmentKey: null,
    ...extra,
  }) as TSurvey;
const filter = (resource: object, connector: 'and' | 'or' | null = null) => ({ id: 'f', connector, resource });
const attribute = (name: string, operator: string, value?: string | number) => ({
  root: { type: 'attribute', attributeClassName: name },
  qualifier: { operator },
  value,
});
const segmented = (id: string, filters: unknown[]) => survey(id, { segment: { filters } as TSurvey['segment'] });
const visitor = (extra: Partial<Visitor> = {}): Visitor => ({
  userId: 'u1',
  attributes: {},
  device: 'desktop',
  displays: [],
  ...extra,
});
const display = (surveyId: string, daysAgo: number, responseId: string | null = null) => ({
  id: `d-${surveyId}-${daysAgo}`,
  environmentId: 'e',
  surveyId,
  personId: 'p',
  responseId,
  createdAt: new Date(NOW - daysAgo * DAY).toISOString(),
  updatedAt: '',
  flag: null,
});
const ids = (surveys: TSurvey[]) => surveys.map((s) => s.id);

describe('survey targeting', () => {
  it('syncs only running web surveys without segment filters to anonymous visitors', () => {
    expect(isPublicSurvey(survey('a'), NOW)).toBe(true);
    expect(isPublicSurvey(survey('b', { status: 'paused' }), NOW)).toBe(false);
    expect(isPublicSurvey(survey('c', { type: 'link' }), NOW)).toBe(false);
    expect(isPublicSurvey(segmented('d', [filter(attribute('plan', 'isSet'))]), NOW)).toBe(false);
    expect(isPublicSurvey(segmented('e', []), NOW)).toBe(true);
    expect(isPublicSurvey(survey('f', { closeOnDate: new Date(NOW - 1).toISOString() }), NOW)).toBe(false);
  });

  it('applies the survey recontact days to its newest display, else the product days to the newest display of any', () => {
    const own = survey('own', { recontactDays: 3 });
    const other = survey('other');
    const shown = (days: number) =>
      ids(surveysForVisitor([own, other], product, visitor({ displays: [display('own', days)] }), NOW));
    expect(shown(2)).toEqual([]);
    expect(shown(3)).toEqual(['own']);
    expect(shown(7)).toEqual(['own', 'other']);
    expect(
      ids(
        surveysForVisitor(
          [other],
          { recontactDays: null } as unknown as TProduct,
          visitor({ displays: [display('own', 0)] }),
          NOW,
        ),
      ),
    ).toEqual(['other']);
  });

  it('folds filters left to right with every operator', () => {
    const who = visitor({ attributes: { plan: 'paid', seats: '12', email: 'ada@example.com' } });
    const matches = (filters: unknown[]) =>
      surveysForVisitor([segmented('s', filters)], product, who, NOW).length === 1;
    expect(matches([filter(attribute('plan', 'equals', 'paid'))])).toBe(true);
    expect(matches([filter(attribute('plan', 'notEquals', 'paid'))])).toBe(false);
    expect(matches([filter(attribute('seats', 'greaterThan', 10))])).toBe(true);
    expect(matches([filter(attribute('seats', 'lessEqual', 11))])).toBe(false);
    expect(matches([filter(attribute('email', 'endsWith', '@example.com'))])).toBe(true);
    expect(matches([filter(attribute('email', 'doesNotContain', 'ada'))])).toBe(false);
    expect(matches([filter(attribute('missing', 'isNotSet'))])).toBe(true);
    expect(matches([filter(attribute('missing', 'equals', ''))])).toBe(false);
    expect(
      matches([filter(attribute('plan', 'equals', 'free')), filter(attribute('seats', 'greaterEqual', 12), 'or')]),
    ).toBe(true);
    expect(
      matches([
        filter(attribute('plan', 'equals', 'free')),
        filter(attribute('seats', 'greaterEqual', 12), 'or'),
        filter(attribute('plan', 'equals', 'x'), 'and'),
      ]),
    ).toBe(false);
    expect(
      matches([
        filter([
          filter(attribute('plan', 'equals', 'paid')),
          filter(
            { root: { type: 'device', deviceType: 'desktop' }, qualifier: { operator: 'equals' }, value: 'desktop' },
            'and',
          ),
        ]),
      ]),
    ).toBe(true);
    expect(
      matches([
        filter({
          root: { type: 'person', personIdentifier: 'userId' },
          qualifier: { operator: 'startsWith' },
          value: 'u',
        }),
      ]),
    ).toBe(true);
    expect(
      matches([
        filter({
          root: { type: 'action', actionClassId: 'a' },
          qualifier: { metric: 'occuranceCount', operator: 'greaterThan' },
          value: 0,
        }),
      ]),
    ).toBe(false);
  });

  it('drops a survey with an empty segment when another survey has filters, as Formbricks does', () => {
    const surveys = [
      segmented('empty', []),
      segmented('paid', [filter(attribute('plan', 'equals', 'paid'))]),
      survey('plain'),
    ];
    expect(ids(surveysForVisitor(surveys, product, visitor({ attributes: { plan: 'paid' } }), NOW))).toEqual([
      'paid',
      'plain',
    ]);
  });
});
