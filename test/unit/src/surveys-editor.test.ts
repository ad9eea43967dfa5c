import { describe, expect, it } from 'vitest';
import {
  attributeFilterProblem,
  LOGIC_CONDITIONS,
  logicProblem,
  QUESTION_TYPES,
  surveyIssues,
  LOGIC_CONDITION_NAMES,
} from '../../../domain/surveys/schema';
import type { TSurveyLogicCondition, TSurveyQuestion, TSurveyQuestionType } from '../../../domain/surveys/types';
import {
  actionClassDescription,
  actionClassForm,
  actionClassInput,
  actionClassProblems,
  EMPTY_ACTION_CLASS,
} from '../../../src/features/surveys/action-form';
import {
  attributeFilters,
  editorReducer,
  initialEditorState,
  moved,
  previewSurvey,
  questionOfType,
  withAttributeFilter,
} from '../../../src/features/surveys/editor/editor-model';
import { draftSurvey, TEMPLATES } from '../../../src/features/surveys/templates';

const ALL_CONDITIONS = LOGIC_CONDITION_NAMES;

/** A question of the type with what its conditions compare against: choices A and B, a 1-5 rating. */
function questionFor(type: TSurveyQuestionType): TSurveyQuestion {
  const question = { ...questionOfType(type), headline: 'Q' } as TSurveyQuestion & Record<string, unknown>;
  if (type === 'multipleChoiceSingle' || type === 'multipleChoiceMulti')
    Object.assign(question, {
      choices: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
    });
  if (type === 'pictureSelection')
    Object.assign(question, {
      choices: [
        { id: 'p1', imageUrl: '/1.png' },
        { id: 'p2', imageUrl: '/2.png' },
      ],
    });
  if (type === 'cal') Object.assign(question, { calUserName: 'someone' });
  return question;
}

/** A value the condition accepts for the type. */
function goodValue(type: TSurveyQuestionType, condition: TSurveyLogicCondition) {
  if (['lessThan', 'lessEqual', 'greaterThan', 'greaterEqual'].includes(condition)) return 3;
  if (condition === 'equals' || condition === 'notEquals') return type === 'nps' || type === 'rating' ? 3 : 'A';
  if (condition === 'includesAll' || condition === 'includesOne') return type === 'pictureSelection' ? ['p1'] : ['A'];
  return undefined;
}

describe('logic rules per question type', () => {
  for (const type of QUESTION_TYPES) {
    it(`${type}: offers exactly its conditions, each with its value, jumping to a later question or the end`, () => {
      const question = questionFor(type);
      for (const condition of ALL_CONDITIONS) {
        const rule = { condition, value: goodValue(type, condition), destination: 'end' };
        const problem = logicProblem(question as never, rule, []);
        if (LOGIC_CONDITIONS[type].includes(condition)) expect(problem, `${type} ${condition}`).toBeUndefined();
        else expect(problem, `${type} ${condition}`).toMatchObject({ field: 'condition' });
      }
      const first = LOGIC_CONDITIONS[type][0];
      expect(logicProblem(question as never, { condition: first, destination: 'later' }, ['later'])).toBeUndefined();
      expect(logicProblem(question as never, { condition: first, destination: 'earlier' }, ['later'])).toEqual({
        field: 'destination',
        message: 'must be a later question or the end',
      });
      expect(logicProblem(question as never, { condition: first }, [])).toMatchObject({ field: 'destination' });
    });
  }

  it('NPS compares with 0-10 and a rating with 1 to its range', () => {
    const nps = questionFor('nps');
    const rating = { ...questionFor('rating'), range: 5 } as TSurveyQuestion;
    const check = (question: TSurveyQuestion, value: unknown) =>
      logicProblem(question as never, { condition: 'greaterThan', value: value as number, destination: 'end' }, []);
    expect(check(nps, 0)).toBeUndefined();
    expect(check(nps, 10)).toBeUndefined();
    expect(check(nps, 11)).toEqual({ field: 'value', message: 'must be a whole number from 0 to 10' });
    expect(check(nps, '5')).toMatchObject({ field: 'value' });
    expect(check(rating, 5)).toBeUndefined();
    expect(check(rating, 0)).toEqual({ field: 'value', message: 'must be a whole number from 1 to 5' });
    expect(check(rating, 6)).toMatchObject({ field: 'value' });
  });

  it('choice conditions take a label of the question ("Other" too), lists one or more of them', () => {
    const single = questionFor('multipleChoiceSingle');
    const multi = questionFor('multipleChoiceMulti');
    const rule = (condition: TSurveyLogicCondition, value: unknown) => ({
      condition,
      value: value as string,
      destination: 'end',
    });
    expect(logicProblem(single as never, rule('equals', 'A'), [])).toBeUndefined();
    expect(logicProblem(single as never, rule('equals', 'Other'), [])).toBeUndefined();
    expect(logicProblem(single as never, rule('equals', 'C'), [])).toEqual({
      field: 'value',
      message: 'must be one of the choices',
    });
    expect(logicProblem(multi as never, rule('includesAll', ['A', 'B']), [])).toBeUndefined();
    expect(logicProblem(multi as never, rule('includesAll', []), [])).toMatchObject({ field: 'value' });
    expect(logicProblem(multi as never, rule('includesOne', ['Z']), [])).toMatchObject({ field: 'value' });
  });

  it('conditions without a value refuse one', () => {
    expect(
      logicProblem(questionFor('openText') as never, { condition: 'submitted', value: 'x', destination: 'end' }, []),
    ).toEqual({ field: 'value', message: 'must be empty for "submitted"' });
  });

  it('the survey schema names the failing rule field', () => {
    const survey = draftSurvey('S', [
      { ...questionFor('nps'), id: 'one', logic: [{ condition: 'clicked', destination: 'end' }] } as TSurveyQuestion,
      { ...questionFor('openText'), id: 'two' },
    ]);
    expect(surveyIssues(survey)).toEqual({
      'questions.0.logic.0.condition': `must be one of ${LOGIC_CONDITIONS.nps.join(', ')}`,
    });
  });
});

describe('attribute filters', () => {
  it('need an attribute, a known operator and (except isSet/isNotSet) a value, a number for comparisons', () => {
    expect(attributeFilterProblem({ attribute: ' ', operator: 'equals', value: 'x' })).toEqual({
      field: 'attribute',
      message: 'must not be empty',
    });
    expect(attributeFilterProblem({ attribute: 'plan', operator: 'matches', value: 'x' })).toMatchObject({
      field: 'operator',
    });
    expect(attributeFilterProblem({ attribute: 'plan', operator: 'isSet', value: '' })).toBeUndefined();
    expect(attributeFilterProblem({ attribute: 'plan', operator: 'equals', value: '' })).toEqual({
      field: 'value',
      message: 'must not be empty',
    });
    expect(attributeFilterProblem({ attribute: 'age', operator: 'greaterThan', value: 'old' })).toEqual({
      field: 'value',
      message: 'must be a number',
    });
    expect(attributeFilterProblem({ attribute: 'age', operator: 'greaterThan', value: '30' })).toBeUndefined();
  });

  it('map onto the segment: added, changed and removed, the first without a connector, numbers for comparisons', () => {
    let draft = draftSurvey('S', [questionFor('openText')]);
    draft = withAttributeFilter(draft, -1, { connector: 'and', attribute: 'plan', operator: 'equals', value: 'pro' });
    draft = withAttributeFilter(draft, -1, { connector: 'or', attribute: 'age', operator: 'greaterThan', value: '30' });
    expect(draft.segment?.filters).toEqual([
      expect.objectContaining({
        connector: null,
        resource: expect.objectContaining({
          root: { type: 'attribute', attributeClassName: 'plan' },
          qualifier: { operator: 'equals' },
          value: 'pro',
        }),
      }),
      expect.objectContaining({ connector: 'or', resource: expect.objectContaining({ value: 30 }) }),
    ]);
    expect(surveyIssues(draft)).toEqual({});
    expect(attributeFilters(draft).rows.map(({ attribute, operator, value }) => [attribute, operator, value])).toEqual([
      ['plan', 'equals', 'pro'],
      ['age', 'greaterThan', '30'],
    ]);
    draft = withAttributeFilter(draft, 1, { connector: 'or', attribute: 'age', operator: 'isSet', value: '' });
    expect((draft.segment!.filters[1] as any).resource).not.toHaveProperty('value');
    draft = withAttributeFilter(draft, 0, undefined);
    expect((draft.segment!.filters[0] as any).connector).toBeNull();
    draft = withAttributeFilter(draft, 0, undefined);
    expect(draft.segment).toBeNull();
  });

  it('keep filters the editor does not show (groups, person, device) as they are', () => {
    const group = {
      id: 'g',
      connector: null,
      resource: [
        {
          id: 'x',
          connector: null,
          resource: {
            root: { type: 'device', deviceType: 'phone' },
            qualifier: { operator: 'equals' },
            value: 'phone',
          },
        },
      ],
    };
    const draft = { ...draftSurvey('S', [questionFor('openText')]), segment: { filters: [group] } } as never;
    expect(attributeFilters(draft)).toEqual({ rows: [], others: 1 });
    const next = withAttributeFilter(draft, -1, {
      connector: 'and',
      attribute: 'plan',
      operator: 'equals',
      value: 'pro',
    });
    expect(next.segment?.filters[0]).toBe(group);
    expect(
      surveyIssues({
        ...draftSurvey('S', [questionFor('openText')]),
        segment: {
          filters: [
            {
              connector: null,
              resource: {
                root: { type: 'attribute', attributeClassName: '' },
                qualifier: { operator: 'equals' },
                value: 'x',
              },
            },
          ],
        },
      }),
    ).toEqual({
      'segment.filters.0.resource': 'must name an attribute, an operator and a value (a number for comparisons)',
    });
  });
});

describe('triggers', () => {
  it('a survey has triggers or inline triggers, never both', () => {
    const survey = {
      ...draftSurvey('S', [questionFor('openText')]),
      triggers: ['x'],
      inlineTriggers: { codeConfig: { identifier: 'x' } },
    };
    expect(surveyIssues(survey)).toEqual({ triggers: 'a survey has triggers or inline triggers, never both' });
  });

  it('an action class form is a code action, or a no-code one on a page URL with its rule, a CSS selector or a text', () => {
    expect(actionClassProblems(EMPTY_ACTION_CLASS)).toEqual({ name: 'must not be empty' });
    expect(actionClassInput({ ...EMPTY_ACTION_CLASS, name: ' Bought ' })).toEqual({
      name: 'Bought',
      description: null,
      type: 'code',
      noCodeConfig: null,
    });
    const page = { ...EMPTY_ACTION_CLASS, name: 'Pricing', type: 'noCode' as const, rule: 'startsWith' as const };
    expect(actionClassProblems(page)).toEqual({ value: 'must not be empty' });
    expect(actionClassInput({ ...page, value: '/pricing' }).noCodeConfig).toEqual({
      type: 'pageUrl',
      pageUrl: { value: '/pricing', rule: 'startsWith' },
    });
    const click = { ...page, kind: 'cssSelector' as const, value: '#buy' };
    expect(actionClassProblems(click)).toEqual({});
    expect(actionClassInput(click).noCodeConfig).toEqual({ type: 'cssSelector', cssSelector: { value: '#buy' } });
    expect(actionClassInput({ ...page, kind: 'innerHtml', value: 'Buy' }).noCodeConfig).toEqual({
      type: 'innerHtml',
      innerHtml: { value: 'Buy' },
    });
    expect(
      actionClassDescription({
        type: 'noCode',
        name: 'P',
        noCodeConfig: { pageUrl: { value: '/p', rule: 'notContains' } },
      }),
    ).toBe('Page URL does not contain “/p”');
    expect(actionClassDescription({ type: 'code', name: 'Bought', noCodeConfig: null })).toBe(
      "formbricks.track('Bought')",
    );
  });

  it('a stored action class opens in the form and comes back unchanged', () => {
    const stored = [
      { name: 'Bought', description: null, type: 'code' as const, noCodeConfig: null },
      {
        name: 'Pricing',
        description: 'Opened pricing',
        type: 'noCode' as const,
        noCodeConfig: { type: 'pageUrl' as const, pageUrl: { value: '/pricing', rule: 'endsWith' as const } },
      },
      { name: 'Buy', description: null, type: 'noCode' as const, noCodeConfig: { cssSelector: { value: '#buy' } } },
      { name: 'Text', description: null, type: 'noCode' as const, noCodeConfig: { innerHtml: { value: 'Buy now' } } },
    ];
    for (const actionClass of stored) {
      const input = actionClassInput(actionClassForm(actionClass));
      expect(input).toMatchObject({
        name: actionClass.name,
        description: actionClass.description,
        type: actionClass.type,
      });
      const config = actionClass.noCodeConfig;
      if (config) expect(input.noCodeConfig).toMatchObject({ ...config, type: config.type ?? Object.keys(config)[0] });
      else expect(input.noCodeConfig).toBeNull();
    }
  });
});

describe('questions and templates', () => {
  it('a question changed to another type keeps its id, headline, description and required, and drops its logic', () => {
    const from = {
      ...questionFor('nps'),
      id: 'keep',
      subheader: 'Sub',
      required: false,
      logic: [{ condition: 'submitted' as const, destination: 'end' }],
    };
    for (const type of QUESTION_TYPES) {
      const question = questionOfType(type, from as TSurveyQuestion);
      expect(question).toMatchObject({ id: 'keep', headline: 'Q', subheader: 'Sub', required: false, type });
      expect(question).not.toHaveProperty('logic');
    }
  });

  it('every template is a valid survey', () => {
    for (const template of TEMPLATES) expect(surveyIssues(template.build()), template.name).toEqual({});
  });

  it('the preview draws one question without its logic, or the welcome card', () => {
    const draft = {
      ...draftSurvey('S', [
        { ...questionFor('openText'), id: 'a', logic: [{ condition: 'submitted' as const, destination: 'end' }] },
        { ...questionFor('nps'), id: 'b' },
      ]),
      welcomeCard: { enabled: true, headline: 'Hi' },
    };
    expect(previewSurvey(draft, 1).questions.map((q) => q.id)).toEqual(['b']);
    expect(previewSurvey(draft, 1).welcomeCard.enabled).toBe(false);
    expect(previewSurvey(draft, 0).questions[0]).not.toHaveProperty('logic');
    expect(previewSurvey(draft, 'welcome').welcomeCard).toEqual({ enabled: true, headline: 'Hi' });
    expect(moved(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
  });
});

describe('the editor draft', () => {
  const draft = () =>
    draftSurvey('S', [
      { ...questionFor('openText'), id: 'a' },
      { ...questionFor('nps'), id: 'b' },
      { ...questionFor('rating'), id: 'c' },
    ]);
  const ids = (state: { draft: { questions: { id: string }[] } }) => state.draft.questions.map((q) => q.id);

  it('starts on the first question and changes fields without touching the rest', () => {
    const start = initialEditorState(draft());
    expect(start.card).toBe(0);
    const renamed = editorReducer(start, { type: 'change', patch: { name: 'Renamed' } });
    expect(renamed.draft).toEqual({ ...start.draft, name: 'Renamed' });
    expect(start.draft.name).toBe('S');
    expect(editorReducer(start, { type: 'select', card: 'welcome' })).toEqual({ ...start, card: 'welcome' });
  });

  it('replaces, moves, removes and adds questions, keeping the preview on the question acted upon', () => {
    const start = editorReducer(initialEditorState(draft()), { type: 'select', card: 2 });
    const replaced = editorReducer(start, {
      type: 'setQuestion',
      index: 1,
      question: { ...start.draft.questions[1], headline: 'How likely?' },
    });
    expect(replaced.draft.questions[1].headline).toBe('How likely?');
    expect(replaced.card).toBe(2);

    const movedUp = editorReducer(start, { type: 'moveQuestion', from: 2, to: 1 });
    expect(ids(movedUp)).toEqual(['a', 'c', 'b']);
    expect(movedUp.card).toBe(1);

    const removed = editorReducer(start, { type: 'removeQuestion', index: 1 });
    expect(ids(removed)).toEqual(['a', 'c']);
    expect(removed.card).toBe(0);

    const added = editorReducer(start, { type: 'addQuestion', question: { ...questionFor('cta'), id: 'd' } });
    expect(ids(added)).toEqual(['a', 'b', 'c', 'd']);
    expect(added.card).toBe(3);
    expect(ids(start)).toEqual(['a', 'b', 'c']);
  });
});
