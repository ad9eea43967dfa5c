/**
 * A stored survey in the shape today's Formbricks clients read (docs/compatibility.md, "Today's
 * Formbricks clients"): every visible text an i18n object `{ default }`, one block per question holding
 * it as its element, the thank-you card or redirect as an ending, triggers as `{ actionClass: { name } }`,
 * the product's overwrites as `workspaceOverwrites` (and `projectOverwrites`, which React Native and
 * Android read) and a segment every app survey has, whose id the user state's `segments` lists.
 * `current-render.ts` turns this shape back into the one Ensign's renderer draws.
 */
import { needsIdentity } from './eligibility.js';
import type {
  TActionClass,
  TPlacement,
  TProduct,
  TSurvey,
  TSurveyLogic,
  TSurveyLogicCondition,
  TSurveyQuestion,
} from './types.js';

/** A text in every language of a survey; `default` is always there. */
export type I18nString = { default: string } & Record<string, string>;

export type Overlay = 'none' | 'light' | 'dark';

export interface CurrentCondition {
  id: string;
  leftOperand: { type: 'element'; value: string };
  operator: string;
  rightOperand?: { type: 'static'; value: string | number | string[] };
}

export interface CurrentLogic {
  id: string;
  conditions: { id: string; connector: 'and' | 'or'; conditions: CurrentCondition[] };
  actions: { id: string; objective: 'jumpToBlock'; target: string }[];
}

/** An element: a 1.6 question with its texts as i18n objects, its button labels and logic on its block. */
export type CurrentElement = Record<string, unknown> & { id: string; type: TSurveyQuestion['type'] };

export interface CurrentBlock {
  id: string;
  name: string;
  elements: CurrentElement[];
  logic?: CurrentLogic[];
  buttonLabel?: I18nString;
  backButtonLabel?: I18nString;
}

export type CurrentEnding =
  | {
      id: string;
      type: 'endScreen';
      headline?: I18nString;
      subheader?: I18nString;
      buttonLabel?: I18nString;
      buttonLink?: string;
      imageUrl?: string;
    }
  | { id: string; type: 'redirectToUrl'; url: string; label: string };

export interface CurrentOverwrites {
  placement?: TPlacement | null;
  clickOutsideClose?: boolean | null;
  overlay?: Overlay | null;
  brandColor?: string | null;
  highlightBorderColor?: string | null;
}

export interface CurrentSegment {
  id: string;
  hasFilters: boolean;
  /** A placeholder: the real filters stay on the server, which reports membership in the user state. */
  filters: unknown[];
}

export interface CurrentSurvey {
  id: string;
  name: string;
  type: 'app';
  status: TSurvey['status'];
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  welcomeCard: Record<string, unknown> & { enabled: boolean };
  /** Empty: the elements are in `blocks` (today's schema forbids both being non-empty). */
  questions: [];
  blocks: CurrentBlock[];
  endings: CurrentEnding[];
  variables: [];
  hiddenFields: TSurvey['hiddenFields'];
  triggers: { actionClass: { name: string } }[];
  displayOption: TSurvey['displayOption'];
  displayLimit: null;
  displayPercentage: number | null;
  recontactDays: number | null;
  autoClose: number | null;
  autoComplete: number | null;
  delay: number;
  segment: CurrentSegment;
  workspaceOverwrites: CurrentOverwrites | null;
  projectOverwrites: CurrentOverwrites | null;
  styling: Record<string, unknown> | null;
  languages: [];
  showLanguageSwitch: null;
  isBackButtonHidden: false;
  isAutoProgressingEnabled: false;
  recaptcha: null;
}

/** The id of the one ending a survey has (the thank-you card or the redirect); jumps to "end" target it. */
export const ENDING_ID = 'end';

/** The texts of a question (and of a choice) that are shown, hence i18n objects today. */
export const TEXT_KEYS = [
  'headline',
  'subheader',
  'placeholder',
  'html',
  'label',
  'lowerLabel',
  'upperLabel',
  'dismissButtonLabel',
  'otherOptionPlaceholder',
] as const;

/** Texts the block carries for its elements. */
export const BLOCK_TEXT_KEYS = ['buttonLabel', 'backButtonLabel'] as const;

/** 1.6's logic conditions and today's operators, one for one (a file upload's `uploaded` is today's `isSubmitted`). */
export const OPERATORS: Record<TSurveyLogicCondition, string> = {
  accepted: 'isAccepted',
  clicked: 'isClicked',
  submitted: 'isSubmitted',
  skipped: 'isSkipped',
  equals: 'equals',
  notEquals: 'doesNotEqual',
  lessThan: 'isLessThan',
  lessEqual: 'isLessThanOrEqual',
  greaterThan: 'isGreaterThan',
  greaterEqual: 'isGreaterThanOrEqual',
  includesAll: 'includesAllOf',
  includesOne: 'includesOneOf',
  uploaded: 'isSubmitted',
  notUploaded: 'isSkipped',
  booked: 'isBooked',
};

/** Operators that compare with nothing. */
const UNARY = new Set(['isAccepted', 'isClicked', 'isSubmitted', 'isSkipped', 'isBooked']);

export const i18n = (text: string): I18nString => ({ default: text });
const i18nOf = (text: string | undefined) => (text === undefined ? undefined : i18n(text));

/** The object without its undefined keys (the wire carries none). */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/** The segment id every survey with no targeting has: every identified visitor is in it. */
export const EVERYONE_SEGMENT = 'ensign:all';

/**
 * A survey's segment id: one id per rule of membership, so that the user state's `segments` says which
 * surveys a visitor may see. A survey whose only targeting is a Flipt segment has `flipt:{segmentKey}` (every
 * survey of that segment shares it); one whose only targeting is a 1.6 segment with filters has that
 * segment's id; one with several (a linked flag, a Flipt and a 1.6 segment) has `survey:{id}`; one with none
 * has `ensign:all`.
 */
export function segmentIdOf(survey: Pick<TSurvey, 'id' | 'linkedFlag' | 'segmentKey' | 'segment'>): string {
  const filtered = survey.segment !== null && survey.segment.filters.length > 0;
  const rules = [survey.linkedFlag !== null, survey.segmentKey !== null, filtered].filter(Boolean).length;
  if (rules === 0) return EVERYONE_SEGMENT;
  if (rules > 1 || survey.linkedFlag !== null) return `survey:${survey.id}`;
  return survey.segmentKey !== null ? `flipt:${survey.segmentKey}` : survey.segment!.id;
}

/** Whether anonymous visitors are kept from the survey: it needs an identity or has segment filters. */
export const hasFilters = (survey: Pick<TSurvey, 'linkedFlag' | 'segmentKey' | 'segment'>): boolean =>
  needsIdentity(survey) || (survey.segment !== null && survey.segment.filters.length > 0);

/** The 1.6 overwrites in today's names: `darkOverlay` is an `overlay`. */
export function currentOverwrites(overwrites: TSurvey['productOverwrites']): CurrentOverwrites | null {
  if (!overwrites) return null;
  const { darkOverlay, ...rest } = overwrites;
  return defined({
    ...rest,
    overlay: darkOverlay === undefined || darkOverlay === null ? darkOverlay : darkOverlay ? 'dark' : 'none',
  } as CurrentOverwrites);
}

/** A choice label a logic value names is today the choice's id. */
function choiceIds(question: TSurveyQuestion, value: TSurveyLogic['value']): TSurveyLogic['value'] {
  if (question.type !== 'multipleChoiceSingle' && question.type !== 'multipleChoiceMulti') return value;
  const idOf = (label: string) => question.choices.find((choice) => choice.label === label)?.id ?? label;
  if (Array.isArray(value)) return value.map(idOf);
  return typeof value === 'string' ? idOf(value) : value;
}

function currentLogic(question: TSurveyQuestion): CurrentLogic[] | undefined {
  if (!question.logic?.length) return undefined;
  const rules = question.logic.flatMap((rule, index) => {
    if (!rule.condition || !rule.destination) return [];
    const operator = OPERATORS[rule.condition];
    const id = `${question.id}-logic-${index}`;
    const condition: CurrentCondition = defined({
      id: `${id}-condition`,
      leftOperand: { type: 'element' as const, value: question.id },
      operator,
      rightOperand:
        UNARY.has(operator) || rule.value === undefined
          ? undefined
          : { type: 'static' as const, value: choiceIds(question, rule.value)! },
    });
    const target = rule.destination === 'end' ? ENDING_ID : rule.destination;
    return [
      {
        id,
        conditions: { id: `${id}-group`, connector: 'and' as const, conditions: [condition] },
        actions: [{ id: `${id}-jump`, objective: 'jumpToBlock' as const, target }],
      },
    ];
  });
  return rules.length ? rules : undefined;
}

/** A question as today's element, in a block of its own that carries its button labels and logic. */
export function currentBlock(question: TSurveyQuestion): CurrentBlock {
  const { buttonLabel, backButtonLabel, logic: _logic, ...rest } = question;
  const element: Record<string, unknown> = { ...rest };
  for (const key of TEXT_KEYS) if (typeof element[key] === 'string') element[key] = i18n(element[key] as string);
  if ('choices' in question)
    element.choices = question.choices.map((choice) =>
      'label' in choice && typeof choice.label === 'string' ? { ...choice, label: i18n(choice.label) } : { ...choice },
    );
  return defined({
    id: question.id,
    name: question.id,
    elements: [element as CurrentElement],
    logic: currentLogic(question),
    buttonLabel: i18nOf(buttonLabel),
    backButtonLabel: i18nOf(backButtonLabel),
  });
}

function currentEndings(survey: TSurvey): CurrentEnding[] {
  if (survey.redirectUrl) return [{ id: ENDING_ID, type: 'redirectToUrl', url: survey.redirectUrl, label: 'Redirect' }];
  const { enabled, headline, subheader, buttonLabel, buttonLink, imageUrl } = survey.thankYouCard;
  if (!enabled) return [];
  return [
    defined({
      id: ENDING_ID,
      type: 'endScreen' as const,
      headline: i18nOf(headline),
      subheader: i18nOf(subheader),
      buttonLabel: i18nOf(buttonLabel),
      buttonLink,
      imageUrl,
    }),
  ];
}

/**
 * The survey's own styling; a brand or border colour it overwrites is today part of it (a client uses it
 * when the workspace allows overwrites, as Ensign's does).
 */
function currentStyling(survey: TSurvey): Record<string, unknown> | null {
  const brandColor = survey.productOverwrites?.brandColor;
  const highlightBorderColor = survey.productOverwrites?.highlightBorderColor;
  if (!survey.styling && !brandColor && !highlightBorderColor) return null;
  return defined({
    ...survey.styling,
    overwriteThemeStyling: Boolean(brandColor || highlightBorderColor) || undefined,
    brandColor: brandColor ? { light: brandColor } : undefined,
    highlightBorderColor: highlightBorderColor ? { light: highlightBorderColor } : undefined,
  });
}

/** A stored survey as today's clients read it. */
export function currentSurvey(survey: TSurvey): CurrentSurvey {
  const { html, headline, buttonLabel, ...welcome } = survey.welcomeCard;
  const overwrites = currentOverwrites(survey.productOverwrites);
  return {
    id: survey.id,
    name: survey.name,
    type: 'app',
    status: survey.status,
    environmentId: survey.environmentId,
    createdAt: survey.createdAt,
    updatedAt: survey.updatedAt,
    welcomeCard: defined({
      ...welcome,
      headline: i18nOf(headline),
      subheader: i18nOf(html),
      buttonLabel: i18nOf(buttonLabel),
    }),
    questions: [],
    blocks: survey.questions.map(currentBlock),
    endings: currentEndings(survey),
    variables: [],
    hiddenFields: survey.hiddenFields,
    triggers: survey.triggers.map((name) => ({ actionClass: { name } })),
    displayOption: survey.displayOption,
    displayLimit: null,
    displayPercentage: survey.displayPercentage,
    recontactDays: survey.recontactDays,
    autoClose: survey.autoClose,
    autoComplete: survey.autoComplete,
    delay: survey.delay,
    segment: { id: segmentIdOf(survey), hasFilters: hasFilters(survey), filters: hasFilters(survey) ? [{}] : [] },
    workspaceOverwrites: overwrites,
    projectOverwrites: overwrites,
    styling: currentStyling(survey),
    languages: [],
    showLanguageSwitch: null,
    isBackButtonHidden: false,
    isAutoProgressingEnabled: false,
    recaptcha: null,
  };
}

export interface CurrentActionClass {
  id: string;
  type: 'code' | 'noCode';
  name: string;
  /** What `track(key)` names; a code action made before keys is tracked by its name. */
  key: string | null;
  noCodeConfig: Record<string, unknown> | null;
}

/** 1.6's automatic actions are today's no-code listeners. */
const AUTOMATIC: Record<string, string> = {
  'New Session': 'pageView',
  'Exit Intent (Desktop)': 'exitIntent',
  '50% Scroll': 'fiftyPercentScroll',
};

/** An action class as today's clients read it: page URLs are `pageView` URL filters, selectors `click`s. */
export function currentActionClass(actionClass: TActionClass): CurrentActionClass {
  const { id, name, type, noCodeConfig } = actionClass;
  if (type === 'code') return { id, type, name, key: name, noCodeConfig: null };
  if (type === 'automatic') {
    const listener = AUTOMATIC[name];
    // An automatic action of another name fires only when tracked by that name.
    if (!listener) return { id, type: 'code', name, key: name, noCodeConfig: null };
    return { id, type: 'noCode', name, key: null, noCodeConfig: { type: listener, urlFilters: [] } };
  }
  const config = noCodeConfig ?? {};
  const urlFilters = config.pageUrl ? [{ value: config.pageUrl.value, rule: config.pageUrl.rule }] : [];
  const selector = config.cssSelector ?? config.innerHtml;
  if (!selector) return { id, type, name, key: null, noCodeConfig: { type: 'pageView', urlFilters } };
  return {
    id,
    type,
    name,
    key: null,
    noCodeConfig: {
      type: 'click',
      urlFilters,
      elementSelector: defined({ cssSelector: config.cssSelector?.value, innerHtml: config.innerHtml?.value }),
    },
  };
}

export interface CurrentWorkspace {
  id: string;
  recontactDays: number;
  clickOutsideClose: boolean;
  overlay: Overlay;
  placement: TPlacement;
  inAppSurveyBranding: boolean;
  styling: { allowStyleOverwrite: true; brandColor: { light: string }; highlightBorderColor?: { light: string } };
}

/** The product's settings as today's workspace; its id is the environment's, which the clients name in every path. */
export function currentWorkspace(environmentId: string, product: TProduct): CurrentWorkspace {
  return {
    id: environmentId,
    recontactDays: product.recontactDays,
    clickOutsideClose: product.clickOutsideClose,
    overlay: product.darkOverlay ? 'dark' : 'none',
    placement: product.placement,
    inAppSurveyBranding: product.inAppSurveyBranding,
    styling: defined({
      allowStyleOverwrite: true as const,
      brandColor: { light: product.brandColor },
      highlightBorderColor: product.highlightBorderColor ? { light: product.highlightBorderColor } : undefined,
    }),
  };
}
