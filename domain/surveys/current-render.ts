/**
 * Today's survey JSON (what `GET .../environment` serves, `current-shape.ts`) back in the shape Ensign's
 * renderer draws, in one language: what `/js/surveys.umd.cjs` does with the survey a mobile WebView hands
 * to `renderSurvey`. Reads blocks of elements, or questions when there are no blocks (clients before
 * blocks), and plain strings where a text is not an i18n object. Logic that is no single jump on one
 * answer (calculations, condition groups) has no 1.6 equivalent and is left out.
 */
import { BLOCK_TEXT_KEYS, type CurrentOverwrites, defined, OPERATORS, TEXT_KEYS } from './current-shape.js';
import type { TSurvey, TSurveyLogic, TSurveyLogicCondition, TSurveyQuestion } from './types.js';

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Loose[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** A text in the language: the language's entry, else the default; a plain string is itself. */
export function textIn(value: unknown, language: string): string | undefined {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return undefined;
  const chosen = value[language] ?? value.default;
  return typeof chosen === 'string' ? chosen : undefined;
}

/** Today's operators back to 1.6 conditions; a file upload's submitted/skipped are 1.6's uploaded/notUploaded. */
const CONDITIONS = new Map<string, TSurveyLogicCondition>(
  (Object.entries(OPERATORS) as [TSurveyLogicCondition, string][])
    .filter(([condition]) => condition !== 'uploaded' && condition !== 'notUploaded')
    .map(([condition, operator]) => [operator, condition]),
);
const conditionOf = (operator: string, type: unknown): TSurveyLogicCondition | undefined => {
  if (type === 'fileUpload' && operator === 'isSubmitted') return 'uploaded';
  if (type === 'fileUpload' && operator === 'isSkipped') return 'notUploaded';
  return CONDITIONS.get(operator) ?? (operator === 'equalsOneOf' ? 'includesOne' : undefined);
};

/** A choice id a logic value names is the choice's label in 1.6. */
function choiceLabels(question: Loose, value: unknown, language: string): unknown {
  const choices = list(question.choices);
  const labelOf = (item: unknown) => {
    const choice = choices.find((candidate) => candidate.id === item);
    return choice ? (textIn(choice.label, language) ?? item) : item;
  };
  return Array.isArray(value) ? value.map(labelOf) : labelOf(value);
}

/** The jumps of a block on one answer of one of its elements, as 1.6 logic on that element. */
function logicOf(
  block: Loose,
  elements: Loose[],
  blockFirstElement: Map<string, string>,
  language: string,
): Map<string, TSurveyLogic[]> {
  const byElement = new Map<string, TSurveyLogic[]>();
  for (const rule of list(block.logic)) {
    const group = isObject(rule.conditions) ? rule.conditions : {};
    const conditions = list(group.conditions);
    const jumps = list(rule.actions).filter((action) => action.objective === 'jumpToBlock');
    if (conditions.length !== 1 || jumps.length !== 1 || typeof jumps[0].target !== 'string') continue;
    const [condition] = conditions;
    const left = isObject(condition.leftOperand) ? condition.leftOperand : {};
    const element = elements.find((item) => item.id === left.value);
    if (!element || typeof condition.operator !== 'string') continue;
    const logicCondition = conditionOf(condition.operator, element.type);
    if (!logicCondition) continue;
    const right = isObject(condition.rightOperand) ? condition.rightOperand : undefined;
    const target = jumps[0].target;
    // A target that is no block is an ending: 1.6 knows one, "end".
    const destination = blockFirstElement.get(target) ?? 'end';
    const logic: TSurveyLogic = defined({
      condition: logicCondition,
      value:
        right?.type === 'static' ? (choiceLabels(element, right.value, language) as TSurveyLogic['value']) : undefined,
      destination,
    });
    byElement.set(element.id as string, [...(byElement.get(element.id as string) ?? []), logic]);
  }
  return byElement;
}

/** An element (or a question of clients before blocks) as a 1.6 question in the language. */
function questionOf(item: Loose, language: string, block: Loose, logic: TSurveyLogic[] | undefined): TSurveyQuestion {
  const question: Loose = { ...item };
  for (const key of TEXT_KEYS) if (key in question) question[key] = textIn(question[key], language);
  for (const key of BLOCK_TEXT_KEYS) {
    const text = textIn(block[key] ?? item[key], language);
    if (text === undefined) delete question[key];
    else question[key] = text;
  }
  if (Array.isArray(item.choices))
    question.choices = list(item.choices).map((choice) =>
      'label' in choice ? { ...choice, label: textIn(choice.label, language) ?? '' } : { ...choice },
    );
  if (logic) question.logic = logic;
  else delete question.logic;
  return defined(question) as unknown as TSurveyQuestion;
}

/** The questions of blocks, or of a `questions` list when there are no blocks. */
function questionsOf(survey: Loose, language: string): TSurveyQuestion[] {
  const blocks = list(survey.blocks);
  if (blocks.length === 0) {
    return list(survey.questions).map((question) => {
      const logic = Array.isArray(question.logic) ? (question.logic as TSurveyLogic[]) : undefined;
      return questionOf(question, language, {}, logic?.length ? logic : undefined);
    });
  }
  const firstElement = new Map<string, string>();
  for (const block of blocks) {
    const first = list(block.elements)[0];
    if (typeof block.id === 'string' && typeof first?.id === 'string') firstElement.set(block.id, first.id);
  }
  return blocks.flatMap((block) => {
    const elements = list(block.elements);
    const logic = logicOf(block, elements, firstElement, language);
    return elements.map((element) => questionOf(element, language, block, logic.get(element.id as string)));
  });
}

/** The 1.6 overwrites of today's (`overlay` dark or not), with colours from the survey's styling. */
function overwritesOf(overwrites: unknown, styling: Loose | undefined): TSurvey['productOverwrites'] {
  const given = isObject(overwrites) ? (overwrites as CurrentOverwrites) : undefined;
  const color = (value: unknown) => (isObject(value) && typeof value.light === 'string' ? value.light : undefined);
  const brandColor = styling?.overwriteThemeStyling ? color(styling.brandColor) : undefined;
  const highlightBorderColor = styling?.overwriteThemeStyling ? color(styling.highlightBorderColor) : undefined;
  if (!given && !brandColor && !highlightBorderColor) return null;
  const { overlay, ...rest } = given ?? {};
  return defined({
    ...rest,
    brandColor: brandColor ?? rest.brandColor,
    highlightBorderColor: highlightBorderColor ?? rest.highlightBorderColor,
    darkOverlay: overlay === undefined || overlay === null ? overlay : overlay === 'dark',
  });
}

/** The survey's own styling without what today's shape added to it. */
function stylingOf(styling: Loose | undefined): TSurvey['styling'] {
  if (!styling) return null;
  const { overwriteThemeStyling: _o, brandColor: _b, highlightBorderColor: _h, ...rest } = styling;
  return Object.keys(rest).length ? (rest as TSurvey['styling']) : null;
}

/**
 * Today's survey JSON as the survey Ensign's renderer draws, in `language` (`default`, or a language code
 * the survey's texts carry). Keys the renderer does not read are filled with their empty values.
 */
export function surveyFromCurrent(current: Loose, language = 'default'): TSurvey {
  const text = (value: unknown) => textIn(value, language);
  const welcome = isObject(current.welcomeCard) ? current.welcomeCard : { enabled: false };
  const { headline, subheader, buttonLabel, ...welcomeRest } = welcome;
  const endings = list(current.endings);
  const ending = endings[0];
  const redirect = ending?.type === 'redirectToUrl' && typeof ending.url === 'string' ? ending.url : null;
  const endScreen = ending?.type === 'endScreen' ? ending : undefined;
  const styling = isObject(current.styling) ? current.styling : undefined;
  const segment = isObject(current.segment) ? current.segment : undefined;
  const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
  const num = (value: unknown) => (typeof value === 'number' ? value : null);
  return {
    id: str(current.id),
    createdAt: str(current.createdAt),
    updatedAt: str(current.updatedAt),
    name: str(current.name),
    type: 'web',
    environmentId: str(current.environmentId),
    createdBy: null,
    status: (current.status as TSurvey['status']) ?? 'inProgress',
    displayOption: (current.displayOption as TSurvey['displayOption']) ?? 'displayOnce',
    autoClose: num(current.autoClose),
    triggers: list(current.triggers).flatMap((trigger) => {
      const name = isObject(trigger.actionClass) ? trigger.actionClass.name : undefined;
      return typeof name === 'string' ? [name] : [];
    }),
    inlineTriggers: null,
    redirectUrl: redirect,
    recontactDays: num(current.recontactDays),
    welcomeCard: defined({
      ...welcomeRest,
      enabled: welcome.enabled === true,
      headline: text(headline),
      html: text(subheader),
      buttonLabel: text(buttonLabel),
    }) as TSurvey['welcomeCard'],
    questions: questionsOf(current, language),
    thankYouCard: endScreen
      ? defined({
          enabled: true,
          headline: text(endScreen.headline),
          subheader: text(endScreen.subheader),
          buttonLabel: text(endScreen.buttonLabel),
          buttonLink: typeof endScreen.buttonLink === 'string' ? endScreen.buttonLink : undefined,
          imageUrl: typeof endScreen.imageUrl === 'string' ? endScreen.imageUrl : undefined,
        })
      : { enabled: false },
    hiddenFields: isObject(current.hiddenFields)
      ? (current.hiddenFields as TSurvey['hiddenFields'])
      : { enabled: false, fieldIds: [] },
    delay: num(current.delay) ?? 0,
    autoComplete: num(current.autoComplete),
    closeOnDate: null,
    productOverwrites: overwritesOf(current.workspaceOverwrites ?? current.projectOverwrites, styling),
    styling: stylingOf(styling),
    surveyClosedMessage: null,
    segment:
      segment && typeof segment.id === 'string'
        ? {
            id: segment.id,
            title: segment.id,
            description: null,
            isPrivate: true,
            filters: Array.isArray(segment.filters) ? segment.filters : [],
            environmentId: str(current.environmentId),
            createdAt: '',
            updatedAt: '',
            surveys: [],
          }
        : null,
    singleUse: null,
    verifyEmail: null,
    pin: null,
    resultShareKey: null,
    displayPercentage: num(current.displayPercentage),
    linkedFlag: null,
    segmentKey: null,
  };
}
