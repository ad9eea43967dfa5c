import { describe, expect, it } from 'vitest';
import {
  currentActionClass,
  currentBlock,
  currentSurvey,
  currentWorkspace,
  ENDING_ID,
  EVERYONE_SEGMENT,
  OPERATORS,
  segmentIdOf,
} from '../../../../domain/surveys/current-shape';
import { surveyFromCurrent, textIn } from '../../../../domain/surveys/current-render';
import { LOGIC_CONDITIONS } from '../../../../domain/surveys/schema';
import type { TActionClass, TProduct, TSurvey, TSurveyQuestion } from '../../../../domain/surveys/types';
import { makeSurvey } from '../../widget/render/survey-fixture';

const base: TSurvey = makeSurvey([], {
  id: 'csurvey00000000000000001',
  updatedAt: '2026-01-02T00:00:00.000Z',
  name: 'Checkout',
  displayOption: 'displayMultiple',
  autoClose: 10,
  triggers: ['New Session', 'checkout'],
  recontactDays: 3,
  welcomeCard: {
    enabled: true,
    headline: 'Hi',
    html: '<p>Two minutes</p>',
    buttonLabel: 'Go',
    timeToFinish: true,
    showResponseCount: false,
    fileUrl: 'https://cdn.example/logo.png',
  },
  thankYouCard: {
    enabled: true,
    headline: 'Thanks',
    subheader: 'Bye',
    buttonLabel: 'Home',
    buttonLink: 'https://shop.example',
    imageUrl: 'https://cdn.example/t.png',
  },
  hiddenFields: { enabled: true, fieldIds: ['plan'] },
  delay: 2,
  autoComplete: 100,
  displayPercentage: 50,
});

/** One question of every type, every optional text and each 1.6 logic condition. */
const questions: TSurveyQuestion[] = [
  {
    id: 'open',
    type: 'openText',
    headline: 'Why?',
    subheader: 'Tell us',
    placeholder: 'Type',
    required: true,
    longAnswer: true,
    inputType: 'text',
    buttonLabel: 'Next',
    backButtonLabel: 'Back',
    logic: [
      { condition: 'submitted', destination: 'nps' },
      { condition: 'skipped', destination: 'end' },
    ],
  },
  {
    id: 'single',
    type: 'multipleChoiceSingle',
    headline: 'Pick',
    required: false,
    shuffleOption: 'none',
    otherOptionPlaceholder: 'Other…',
    choices: [
      { id: 'a', label: 'Alpha' },
      { id: 'b', label: 'Beta' },
      { id: 'other', label: 'Other' },
    ],
    logic: [
      { condition: 'equals', value: 'Alpha', destination: 'multi' },
      { condition: 'notEquals', value: 'Beta', destination: 'end' },
      { condition: 'includesOne', value: ['Alpha', 'Beta'], destination: 'nps' },
    ],
  },
  {
    id: 'multi',
    type: 'multipleChoiceMulti',
    headline: 'Several',
    required: false,
    choices: [
      { id: 'x', label: 'X' },
      { id: 'y', label: 'Y' },
    ],
    logic: [{ condition: 'includesAll', value: ['X', 'Y'], destination: 'end' }],
  },
  {
    id: 'nps',
    type: 'nps',
    headline: 'Recommend?',
    required: true,
    lowerLabel: 'No',
    upperLabel: 'Yes',
    logic: [
      { condition: 'lessThan', value: 7, destination: 'rating' },
      { condition: 'lessEqual', value: 8, destination: 'rating' },
      { condition: 'greaterThan', value: 8, destination: 'end' },
      { condition: 'greaterEqual', value: 9, destination: 'end' },
    ],
  },
  {
    id: 'cta',
    type: 'cta',
    headline: 'Try it',
    html: '<b>New</b>',
    buttonUrl: 'https://shop.example/new',
    buttonExternal: true,
    dismissButtonLabel: 'Later',
    required: false,
    logic: [{ condition: 'clicked', destination: 'end' }],
  },
  {
    id: 'rating',
    type: 'rating',
    headline: 'Rate',
    required: true,
    scale: 'star',
    range: 5,
    lowerLabel: 'Bad',
    upperLabel: 'Good',
  },
  {
    id: 'consent',
    type: 'consent',
    headline: 'Terms',
    html: '<p>Agree</p>',
    label: 'I agree',
    required: true,
    logic: [{ condition: 'accepted', destination: 'picture' }],
  },
  {
    id: 'picture',
    type: 'pictureSelection',
    headline: 'Which?',
    required: true,
    allowMulti: false,
    choices: [{ id: 'p1', imageUrl: 'https://cdn.example/1.png' }],
  },
  { id: 'date', type: 'date', headline: 'When?', required: false, format: 'y-M-d' },
  {
    id: 'file',
    type: 'fileUpload',
    headline: 'Upload',
    required: false,
    allowMultipleFiles: false,
    maxSizeInMB: 5,
    allowedFileExtensions: ['png'],
    logic: [
      { condition: 'uploaded', destination: 'cal' },
      { condition: 'notUploaded', destination: 'end' },
    ],
  },
  {
    id: 'cal',
    type: 'cal',
    headline: 'Book',
    required: false,
    calUserName: 'ensign',
    logic: [{ condition: 'booked', destination: 'end' }],
  },
];

const full: TSurvey = { ...base, questions };

describe('a stored survey in the shape of today’s clients', () => {
  it('keeps the ids, targeting and display rules, with the survey type today’s clients filter on', () => {
    const current = currentSurvey(full);
    expect(current).toMatchObject({
      id: full.id,
      name: 'Checkout',
      type: 'app',
      status: 'inProgress',
      environmentId: full.environmentId,
      displayOption: 'displayMultiple',
      displayLimit: null,
      displayPercentage: 50,
      recontactDays: 3,
      autoClose: 10,
      delay: 2,
      hiddenFields: { enabled: true, fieldIds: ['plan'] },
      triggers: [{ actionClass: { name: 'New Session' } }, { actionClass: { name: 'checkout' } }],
      questions: [],
      variables: [],
      languages: [],
      isBackButtonHidden: false,
      recaptcha: null,
      segment: { id: EVERYONE_SEGMENT, hasFilters: false, filters: [] },
    });
  });

  it('turns every visible text into an i18n object with a default, and each question into a block of one element', () => {
    const current = currentSurvey(full);
    expect(current.welcomeCard).toEqual({
      enabled: true,
      headline: { default: 'Hi' },
      subheader: { default: '<p>Two minutes</p>' },
      buttonLabel: { default: 'Go' },
      timeToFinish: true,
      showResponseCount: false,
      fileUrl: 'https://cdn.example/logo.png',
    });
    expect(current.blocks.map((block) => block.elements.map((element) => element.id))).toEqual(
      questions.map((question) => [question.id]),
    );
    const [open, single] = current.blocks;
    expect(open).toMatchObject({ id: 'open', buttonLabel: { default: 'Next' }, backButtonLabel: { default: 'Back' } });
    expect(open.elements[0]).toEqual({
      id: 'open',
      type: 'openText',
      headline: { default: 'Why?' },
      subheader: { default: 'Tell us' },
      placeholder: { default: 'Type' },
      required: true,
      longAnswer: true,
      inputType: 'text',
    });
    expect(single.elements[0].choices).toEqual([
      { id: 'a', label: { default: 'Alpha' } },
      { id: 'b', label: { default: 'Beta' } },
      { id: 'other', label: { default: 'Other' } },
    ]);
    expect(single.elements[0].otherOptionPlaceholder).toEqual({ default: 'Other…' });
    // A picture choice has no label to translate.
    expect(current.blocks[7].elements[0].choices).toEqual([{ id: 'p1', imageUrl: 'https://cdn.example/1.png' }]);
    // No text is left a plain string anywhere in an element.
    for (const block of current.blocks)
      for (const element of block.elements)
        for (const key of ['headline', 'subheader', 'placeholder', 'html', 'label', 'lowerLabel', 'upperLabel'])
          if (key in element) expect(element[key]).toHaveProperty('default');
  });

  it('writes 1.6 logic as jumps between blocks, with choice labels as choice ids and "end" as the ending', () => {
    const [open, single] = currentSurvey(full).blocks;
    expect(open.logic).toEqual([
      {
        id: 'open-logic-0',
        conditions: {
          id: 'open-logic-0-group',
          connector: 'and',
          conditions: [
            { id: 'open-logic-0-condition', leftOperand: { type: 'element', value: 'open' }, operator: 'isSubmitted' },
          ],
        },
        actions: [{ id: 'open-logic-0-jump', objective: 'jumpToBlock', target: 'nps' }],
      },
      expect.objectContaining({
        actions: [{ id: 'open-logic-1-jump', objective: 'jumpToBlock', target: ENDING_ID }],
      }),
    ]);
    expect(single.logic?.map((rule) => rule.conditions.conditions[0])).toEqual([
      expect.objectContaining({ operator: 'equals', rightOperand: { type: 'static', value: 'a' } }),
      expect.objectContaining({ operator: 'doesNotEqual', rightOperand: { type: 'static', value: 'b' } }),
      expect.objectContaining({ operator: 'includesOneOf', rightOperand: { type: 'static', value: ['a', 'b'] } }),
    ]);
    // every 1.6 condition has its operator
    const conditions = new Set(Object.values(LOGIC_CONDITIONS).flat());
    expect(Object.keys(OPERATORS).sort()).toEqual([...conditions].sort());
  });

  it('leaves out logic with no condition or no destination, and blocks without logic carry none', () => {
    const block = currentBlock({
      id: 'q',
      type: 'openText',
      headline: 'H',
      required: false,
      logic: [{ destination: 'end' }, { condition: 'submitted' }],
    });
    expect(block).not.toHaveProperty('logic');
    expect(currentBlock({ id: 'q', type: 'openText', headline: 'H', required: false })).toEqual({
      id: 'q',
      name: 'q',
      elements: [{ id: 'q', type: 'openText', headline: { default: 'H' }, required: false }],
    });
  });

  it('makes the thank-you card an end screen, a redirect a redirect ending, and a disabled card no ending', () => {
    expect(currentSurvey(full).endings).toEqual([
      {
        id: ENDING_ID,
        type: 'endScreen',
        headline: { default: 'Thanks' },
        subheader: { default: 'Bye' },
        buttonLabel: { default: 'Home' },
        buttonLink: 'https://shop.example',
        imageUrl: 'https://cdn.example/t.png',
      },
    ]);
    expect(currentSurvey({ ...full, redirectUrl: 'https://shop.example/done' }).endings).toEqual([
      { id: ENDING_ID, type: 'redirectToUrl', url: 'https://shop.example/done', label: 'Redirect' },
    ]);
    expect(currentSurvey({ ...full, thankYouCard: { enabled: false } }).endings).toEqual([]);
  });

  it('gives overwrites both names, darkOverlay as an overlay, and overwritten colours as the survey’s styling', () => {
    const current = currentSurvey({
      ...full,
      productOverwrites: { placement: 'center', clickOutsideClose: false, darkOverlay: true, brandColor: '#ff0000' },
      styling: { hideProgressBar: true },
    });
    expect(current.workspaceOverwrites).toEqual({
      placement: 'center',
      clickOutsideClose: false,
      overlay: 'dark',
      brandColor: '#ff0000',
    });
    expect(current.projectOverwrites).toEqual(current.workspaceOverwrites);
    expect(current.styling).toEqual({
      hideProgressBar: true,
      overwriteThemeStyling: true,
      brandColor: { light: '#ff0000' },
    });
    expect(currentSurvey({ ...full, productOverwrites: { darkOverlay: false } }).workspaceOverwrites).toEqual({
      overlay: 'none',
    });
    expect(currentSurvey(full)).toMatchObject({ workspaceOverwrites: null, projectOverwrites: null, styling: null });
  });
});

describe('segment ids: one per rule of membership', () => {
  const segment = (filters: unknown[]) => ({
    id: 'cseg0000000000000000001',
    title: 's',
    description: null,
    isPrivate: false,
    filters,
    environmentId: base.environmentId,
    createdAt: '',
    updatedAt: '',
    surveys: [],
  });
  const link = { flagKey: 'checkout', variants: ['new'] };

  it('names everyone, a Flipt segment, a 1.6 segment and a combination apart', () => {
    expect(segmentIdOf(base)).toBe(EVERYONE_SEGMENT);
    expect(segmentIdOf({ ...base, segment: segment([]) })).toBe(EVERYONE_SEGMENT);
    expect(segmentIdOf({ ...base, segmentKey: 'beta' })).toBe('flipt:beta');
    expect(segmentIdOf({ ...base, segment: segment([{}]) })).toBe('cseg0000000000000000001');
    expect(segmentIdOf({ ...base, linkedFlag: link })).toBe(`survey:${base.id}`);
    expect(segmentIdOf({ ...base, segmentKey: 'beta', segment: segment([{}]) })).toBe(`survey:${base.id}`);
    expect(segmentIdOf({ ...base, segmentKey: 'beta', linkedFlag: link })).toBe(`survey:${base.id}`);
  });

  it('keeps anonymous visitors from a survey that needs an identity or has filters, with a placeholder filter', () => {
    expect(currentSurvey({ ...base, segmentKey: 'beta' }).segment).toEqual({
      id: 'flipt:beta',
      hasFilters: true,
      filters: [{}],
    });
    expect(currentSurvey({ ...base, linkedFlag: link }).segment.hasFilters).toBe(true);
    expect(currentSurvey({ ...base, segment: segment([{ secret: 'x' }]) }).segment.filters).toEqual([{}]);
  });
});

describe('action classes and the workspace in today’s shape', () => {
  const actionClass = (extra: Partial<TActionClass>): TActionClass => ({
    id: 'caction000000000000000001',
    createdAt: '',
    updatedAt: '',
    name: 'checkout',
    description: null,
    type: 'code',
    noCodeConfig: null,
    environmentId: base.environmentId,
    ...extra,
  });

  it('tracks a code action by its name as its key', () => {
    expect(currentActionClass(actionClass({}))).toEqual({
      id: 'caction000000000000000001',
      type: 'code',
      name: 'checkout',
      key: 'checkout',
      noCodeConfig: null,
    });
  });

  it('turns automatic actions into no-code listeners', () => {
    expect(currentActionClass(actionClass({ type: 'automatic', name: 'New Session' })).noCodeConfig).toEqual({
      type: 'pageView',
      urlFilters: [],
    });
    expect(currentActionClass(actionClass({ type: 'automatic', name: 'Exit Intent (Desktop)' })).noCodeConfig).toEqual({
      type: 'exitIntent',
      urlFilters: [],
    });
    expect(currentActionClass(actionClass({ type: 'automatic', name: '50% Scroll' })).noCodeConfig).toEqual({
      type: 'fiftyPercentScroll',
      urlFilters: [],
    });
    expect(currentActionClass(actionClass({ type: 'automatic', name: 'Custom' }))).toMatchObject({
      type: 'code',
      key: 'Custom',
    });
  });

  it('makes a page URL a page view with a URL filter, and a selector a click', () => {
    expect(
      currentActionClass(
        actionClass({ type: 'noCode', noCodeConfig: { pageUrl: { value: '/pricing', rule: 'contains' } } }),
      ),
    ).toEqual({
      id: 'caction000000000000000001',
      type: 'noCode',
      name: 'checkout',
      key: null,
      noCodeConfig: { type: 'pageView', urlFilters: [{ value: '/pricing', rule: 'contains' }] },
    });
    expect(
      currentActionClass(
        actionClass({
          type: 'noCode',
          noCodeConfig: {
            pageUrl: { value: 'https://shop.example', rule: 'startsWith' },
            cssSelector: { value: '#buy' },
            innerHtml: { value: 'Buy' },
          },
        }),
      ).noCodeConfig,
    ).toEqual({
      type: 'click',
      urlFilters: [{ value: 'https://shop.example', rule: 'startsWith' }],
      elementSelector: { cssSelector: '#buy', innerHtml: 'Buy' },
    });
  });

  it('gives the product’s settings as the workspace, brand colours as its styling', () => {
    const product = {
      recontactDays: 7,
      clickOutsideClose: true,
      darkOverlay: true,
      placement: 'bottomLeft',
      inAppSurveyBranding: false,
      brandColor: '#123456',
      highlightBorderColor: '#abcdef',
    } as TProduct;
    expect(currentWorkspace('cenv1', product)).toEqual({
      id: 'cenv1',
      recontactDays: 7,
      clickOutsideClose: true,
      overlay: 'dark',
      placement: 'bottomLeft',
      inAppSurveyBranding: false,
      styling: {
        allowStyleOverwrite: true,
        brandColor: { light: '#123456' },
        highlightBorderColor: { light: '#abcdef' },
      },
    });
    expect(currentWorkspace('cenv1', { ...product, darkOverlay: false, highlightBorderColor: null })).toMatchObject({
      overlay: 'none',
      styling: { allowStyleOverwrite: true, brandColor: { light: '#123456' } },
    });
  });
});

describe('today’s survey JSON back in the shape Ensign’s renderer draws', () => {
  /** What the renderer reads is kept; the rest of the survey is left to the server. */
  const drawn = (survey: TSurvey) => ({
    ...survey,
    createdBy: null,
    closeOnDate: null,
    inlineTriggers: null,
    surveyClosedMessage: null,
    segment: null,
    singleUse: null,
    verifyEmail: null,
    pin: null,
    resultShareKey: null,
    linkedFlag: null,
    segmentKey: null,
  });
  const back = (survey: TSurvey) => ({ ...surveyFromCurrent(currentSurvey(survey) as never), segment: null });

  it('gives back every question, text, logic rule and card of the stored survey', () => {
    expect(back(full)).toEqual(drawn(full));
  });

  it('gives back overwrites, colours and styling', () => {
    const survey: TSurvey = {
      ...full,
      productOverwrites: {
        placement: 'topLeft',
        clickOutsideClose: true,
        darkOverlay: false,
        brandColor: '#ff0000',
        highlightBorderColor: '#00ff00',
      },
      styling: { hideProgressBar: true },
    };
    expect(back(survey)).toEqual(drawn(survey));
  });

  it('gives back a redirect, and a survey with no cards', () => {
    const redirect: TSurvey = { ...full, redirectUrl: 'https://shop.example/done', thankYouCard: { enabled: false } };
    expect(back(redirect)).toEqual(drawn(redirect));
    const bare: TSurvey = { ...full, welcomeCard: { enabled: false }, thankYouCard: { enabled: false } };
    expect(back(bare)).toEqual(drawn(bare));
  });

  it('reads a language’s texts, falling back to the default', () => {
    const current = currentSurvey(full) as never as Record<string, any>;
    current.blocks[0].elements[0].headline = { default: 'Why?', de: 'Warum?' };
    const german = surveyFromCurrent(current, 'de');
    expect(german.questions[0].headline).toBe('Warum?');
    expect(german.questions[0].subheader).toBe('Tell us');
    expect(textIn('plain', 'de')).toBe('plain');
    expect(textIn(undefined, 'de')).toBeUndefined();
  });

  it('reads questions when a survey has no blocks (clients before blocks), with texts as plain strings or i18n', () => {
    const survey = surveyFromCurrent({
      id: 's',
      questions: [
        { id: 'q', type: 'openText', headline: { default: 'Hello' }, required: true, buttonLabel: 'Send' },
        { id: 'r', type: 'openText', headline: 'Plain', required: false, logic: [] },
      ],
      endings: [],
    });
    expect(survey.questions).toEqual([
      { id: 'q', type: 'openText', headline: 'Hello', required: true, buttonLabel: 'Send' },
      { id: 'r', type: 'openText', headline: 'Plain', required: false },
    ]);
    expect(survey).toMatchObject({ type: 'web', thankYouCard: { enabled: false }, welcomeCard: { enabled: false } });
  });

  it('leaves out logic that is no single jump on one answer', () => {
    const survey = surveyFromCurrent({
      id: 's',
      blocks: [
        {
          id: 'b1',
          elements: [{ id: 'q', type: 'nps', headline: { default: 'N' }, required: true }],
          logic: [
            {
              id: 'l1',
              conditions: { id: 'g', connector: 'and', conditions: [{}, {}] },
              actions: [{ id: 'a', objective: 'jumpToBlock', target: 'b2' }],
            },
            {
              id: 'l2',
              conditions: {
                id: 'g',
                connector: 'and',
                conditions: [{ id: 'c', leftOperand: { type: 'element', value: 'q' }, operator: 'isSubmitted' }],
              },
              actions: [{ id: 'a', objective: 'calculate', variableId: 'v' }],
            },
            {
              id: 'l3',
              conditions: {
                id: 'g',
                connector: 'and',
                conditions: [
                  {
                    id: 'c',
                    leftOperand: { type: 'element', value: 'q' },
                    operator: 'equalsOneOf',
                    rightOperand: { type: 'static', value: [1, 2] },
                  },
                ],
              },
              actions: [{ id: 'a', objective: 'jumpToBlock', target: 'b2' }],
            },
          ],
        },
        { id: 'b2', elements: [{ id: 'r', type: 'openText', headline: { default: 'R' }, required: false }] },
      ],
    });
    expect(survey.questions[0].logic).toEqual([{ condition: 'includesOne', value: [1, 2], destination: 'r' }]);
  });
});
