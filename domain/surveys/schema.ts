/**
 * The one valibot schema of a survey (and of an action class and a product's settings), shared by the
 * console's editor, the management API and the seed file. Messages say what a field "must" be; the
 * issue's path names the field (`questions.2.logic.0.value`).
 */
import * as v from 'valibot';
import { URL_RULES } from './vocabulary.js';

export const QUESTION_TYPES = [
  'openText',
  'multipleChoiceSingle',
  'multipleChoiceMulti',
  'nps',
  'cta',
  'rating',
  'consent',
  'pictureSelection',
  'date',
  'fileUpload',
  'cal',
] as const;
export type TSurveyQuestionType = (typeof QUESTION_TYPES)[number];

export const SURVEY_STATUSES = ['draft', 'inProgress', 'paused', 'completed'] as const;
export const DISPLAY_OPTIONS = ['displayOnce', 'displayMultiple', 'respondMultiple'] as const;
export const PLACEMENTS = ['bottomLeft', 'bottomRight', 'topLeft', 'topRight', 'center'] as const;
export const OPEN_TEXT_INPUT_TYPES = ['text', 'email', 'url', 'number', 'phone'] as const;
export const SHUFFLE_OPTIONS = ['none', 'all', 'exceptLast'] as const;
export const RATING_SCALES = ['number', 'smiley', 'star'] as const;
export const RATING_RANGES = [3, 4, 5, 7, 10] as const;
export const DATE_FORMATS = ['M-d-y', 'd-M-y', 'y-M-d'] as const;
export const FILE_EXTENSIONS = [
  'png',
  'jpeg',
  'jpg',
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'plain',
  'csv',
  'mp4',
  'mov',
  'avi',
  'mkv',
  'webm',
  'zip',
  'rar',
  '7z',
  'tar',
] as const;

export const SURVEY_TYPES = ['web', 'email', 'link', 'mobile'] as const;
export const ACTION_CLASS_TYPES = ['code', 'noCode', 'automatic'] as const;
export const LOGIC_CONDITION_NAMES = [
  'accepted',
  'clicked',
  'submitted',
  'skipped',
  'equals',
  'notEquals',
  'lessThan',
  'lessEqual',
  'greaterThan',
  'greaterEqual',
  'includesAll',
  'includesOne',
  'uploaded',
  'notUploaded',
  'booked',
] as const;
export type TSurveyLogicCondition = (typeof LOGIC_CONDITION_NAMES)[number];

/** The logic conditions Formbricks 1.6's editor offers for each question type. */
export const LOGIC_CONDITIONS: Record<TSurveyQuestionType, readonly TSurveyLogicCondition[]> = {
  openText: ['submitted', 'skipped'],
  multipleChoiceSingle: ['submitted', 'skipped', 'equals', 'notEquals', 'includesOne'],
  multipleChoiceMulti: ['submitted', 'skipped', 'includesAll', 'includesOne', 'equals'],
  nps: ['submitted', 'skipped', 'equals', 'notEquals', 'lessThan', 'lessEqual', 'greaterThan', 'greaterEqual'],
  rating: ['submitted', 'skipped', 'equals', 'notEquals', 'lessThan', 'lessEqual', 'greaterThan', 'greaterEqual'],
  cta: ['clicked', 'skipped'],
  consent: ['accepted', 'skipped'],
  pictureSelection: ['submitted', 'skipped', 'includesAll', 'includesOne'],
  date: ['submitted', 'skipped'],
  fileUpload: ['uploaded', 'notUploaded'],
  cal: ['booked', 'skipped'],
};

/** What a condition compares the answer with: nothing, a number, one choice label, or several. */
export function logicValueKind(
  type: TSurveyQuestionType,
  condition: TSurveyLogicCondition | undefined,
): 'none' | 'number' | 'choice' | 'choices' {
  switch (condition) {
    case 'equals':
    case 'notEquals':
      return type === 'nps' || type === 'rating' ? 'number' : 'choice';
    case 'lessThan':
    case 'lessEqual':
    case 'greaterThan':
    case 'greaterEqual':
      return 'number';
    case 'includesAll':
    case 'includesOne':
      return 'choices';
    default:
      return 'none';
  }
}

/** Attribute filter operators (Formbricks 1.6's free tier); `isSet` and `isNotSet` take no value. */
export const ATTRIBUTE_OPERATORS = [
  'equals',
  'notEquals',
  'lessThan',
  'lessEqual',
  'greaterThan',
  'greaterEqual',
  'isSet',
  'isNotSet',
  'contains',
  'doesNotContain',
  'startsWith',
  'endsWith',
] as const;
export type AttributeOperator = (typeof ATTRIBUTE_OPERATORS)[number];
export const NO_VALUE_ATTRIBUTE_OPERATORS: readonly string[] = ['isSet', 'isNotSet'];
const NUMERIC_ATTRIBUTE_OPERATORS: readonly string[] = ['lessThan', 'lessEqual', 'greaterThan', 'greaterEqual'];

const oneOf = (values: readonly (string | number)[]) => `must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
const text = v.string('must be a string');
const nonEmpty = v.pipe(text, v.trim(), v.minLength(1, 'must not be empty'));
const nonNegativeInteger = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(0, 'must be 0 or more'),
);
const positiveInteger = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(1, 'must be 1 or more'),
);
const hexColor = v.pipe(text, v.regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'must be a hex colour such as #64748b'));
const placement = v.picklist(PLACEMENTS, oneOf(PLACEMENTS));
const optionalText = v.optional(text);

export const productSettingsSchema = v.strictObject({
  brandColor: v.optional(hexColor, '#64748b'),
  highlightBorderColor: v.optional(v.nullable(hexColor), null),
  recontactDays: v.optional(nonNegativeInteger, 7),
  inAppSurveyBranding: v.optional(v.boolean('must be true or false'), true),
  linkSurveyBranding: v.optional(v.boolean('must be true or false'), true),
  placement: v.optional(placement, 'bottomRight'),
  clickOutsideClose: v.optional(v.boolean('must be true or false'), true),
  darkOverlay: v.optional(v.boolean('must be true or false'), false),
});
export type ProductSettings = v.InferOutput<typeof productSettingsSchema>;

export const noCodeConfigEntries = {
  /** Legacy discriminator, optional. */
  type: v.optional(v.picklist(['innerHtml', 'pageUrl', 'cssSelector'])),
  pageUrl: v.optional(v.strictObject({ value: nonEmpty, rule: v.picklist(URL_RULES, oneOf(URL_RULES)) })),
  innerHtml: v.optional(v.strictObject({ value: nonEmpty })),
  cssSelector: v.optional(v.strictObject({ value: nonEmpty })),
};
export const noCodeConfigSchema = v.pipe(
  v.looseObject(noCodeConfigEntries),
  v.check(
    (config) => Boolean(config.pageUrl || config.innerHtml || config.cssSelector),
    'needs at least one of pageUrl, innerHtml or cssSelector',
  ),
);

export const actionClassInputSchema = v.pipe(
  v.strictObject({
    name: v.pipe(nonEmpty, v.maxLength(255, 'must be at most 255 characters')),
    description: v.optional(v.nullable(text), null),
    type: v.optional(v.picklist(ACTION_CLASS_TYPES, oneOf(ACTION_CLASS_TYPES)), 'code'),
    noCodeConfig: v.optional(v.nullable(noCodeConfigSchema), null),
  }),
  v.forward(
    v.check((input) => input.type !== 'noCode' || input.noCodeConfig !== null, 'is required for a noCode action class'),
    ['noCodeConfig'],
  ),
);
export type ActionClassInput = v.InferOutput<typeof actionClassInputSchema>;

export const choiceEntries = { id: nonEmpty, label: nonEmpty };
export const pictureChoiceEntries = { id: nonEmpty, imageUrl: nonEmpty };
const choices = v.pipe(
  v.array(v.looseObject(choiceEntries)),
  v.minLength(1, 'needs at least one choice'),
  v.check((list) => new Set(list.map((c) => c.label)).size === list.length, 'choice labels must be unique'),
);

/**
 * Per type, the fields a question of that type reads (those it cannot do without required). Each list
 * of entries is also the question's type (types.ts); the schemas are loose, so fields of later
 * Formbricks versions are kept as sent.
 */
export const openTextEntries = {
  type: v.literal('openText'),
  inputType: v.optional(v.picklist(OPEN_TEXT_INPUT_TYPES, oneOf(OPEN_TEXT_INPUT_TYPES))),
  placeholder: optionalText,
  longAnswer: v.optional(v.boolean()),
};
export const multipleChoiceEntries = {
  type: v.picklist(['multipleChoiceSingle', 'multipleChoiceMulti']),
  choices,
  shuffleOption: v.optional(v.picklist(SHUFFLE_OPTIONS, oneOf(SHUFFLE_OPTIONS))),
  otherOptionPlaceholder: optionalText,
};
export const npsEntries = {
  type: v.literal('nps'),
  lowerLabel: v.optional(text, ''),
  upperLabel: v.optional(text, ''),
};
export const ctaEntries = {
  type: v.literal('cta'),
  buttonExternal: v.optional(v.boolean(), false),
  buttonUrl: optionalText,
  dismissButtonLabel: optionalText,
  html: optionalText,
};
export const ratingEntries = {
  type: v.literal('rating'),
  scale: v.picklist(RATING_SCALES, oneOf(RATING_SCALES)),
  range: v.picklist(RATING_RANGES, oneOf(RATING_RANGES)),
  lowerLabel: v.optional(text, ''),
  upperLabel: v.optional(text, ''),
};
export const consentEntries = {
  type: v.literal('consent'),
  label: nonEmpty,
  html: optionalText,
  dismissButtonLabel: optionalText,
  placeholder: optionalText,
};
export const pictureSelectionEntries = {
  type: v.literal('pictureSelection'),
  allowMulti: v.optional(v.boolean(), false),
  choices: v.pipe(v.array(v.looseObject(pictureChoiceEntries)), v.minLength(2, 'needs at least two pictures')),
};
export const dateEntries = {
  type: v.literal('date'),
  html: optionalText,
  format: v.optional(v.picklist(DATE_FORMATS, oneOf(DATE_FORMATS)), 'y-M-d'),
};
export const fileUploadEntries = {
  type: v.literal('fileUpload'),
  allowMultipleFiles: v.optional(v.boolean(), false),
  maxSizeInMB: v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be 0 or more'))),
  allowedFileExtensions: v.optional(v.array(v.picklist(FILE_EXTENSIONS, 'must be a known file extension'))),
};
export const calEntries = { type: v.literal('cal'), calUserName: nonEmpty };

const questionSchema = v.variant(
  'type',
  [
    v.looseObject(openTextEntries),
    v.looseObject(multipleChoiceEntries),
    v.looseObject(npsEntries),
    v.looseObject(ctaEntries),
    v.looseObject(ratingEntries),
    v.looseObject(consentEntries),
    v.looseObject(pictureSelectionEntries),
    v.looseObject(dateEntries),
    v.looseObject(fileUploadEntries),
    v.looseObject(calEntries),
  ],
  `must be one of ${QUESTION_TYPES.join(', ')}`,
);

export const logicEntries = {
  condition: v.optional(v.picklist(LOGIC_CONDITION_NAMES, 'must be a logic condition')),
  value: v.optional(v.union([text, v.number(), v.array(text)], 'must be a string, a number or a list of strings')),
  /** A question id or "end". */
  destination: optionalText,
};
const logicSchema = v.looseObject(logicEntries);

/** The fields every question has, whatever its type. */
export const questionCommonEntries = {
  id: v.pipe(text, v.regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "_" or "-"')),
  headline: nonEmpty,
  subheader: optionalText,
  imageUrl: optionalText,
  required: v.optional(v.boolean(), true),
  buttonLabel: optionalText,
  backButtonLabel: optionalText,
  logic: v.optional(v.array(logicSchema)),
  isDraft: v.optional(v.boolean()),
};
const questionCommon = v.looseObject(questionCommonEntries);

type LogicRule = v.InferOutput<typeof logicSchema>;
type ParsedQuestion = { type: TSurveyQuestionType; choices?: { label?: string }[]; logic?: LogicRule[] } & Record<
  string,
  unknown
>;

/**
 * The problem with one logic rule of a question, or undefined: its condition must be one the type
 * allows, its value what the condition compares with (a number in range, a choice label, a list of
 * labels), its destination a later question or "end".
 */
export function logicProblem(
  question: ParsedQuestion,
  rule: LogicRule,
  laterIds: readonly string[],
): { field: 'condition' | 'value' | 'destination'; message: string } | undefined {
  if (!rule.condition || !LOGIC_CONDITIONS[question.type].includes(rule.condition))
    return { field: 'condition', message: `must be one of ${LOGIC_CONDITIONS[question.type].join(', ')}` };
  const labels = (question.choices ?? []).map((choice) => choice.label);
  const kind = logicValueKind(question.type, rule.condition);
  const value = rule.value;
  if (kind === 'number') {
    const top = question.type === 'nps' ? 10 : Number(question.range ?? 10);
    const low = question.type === 'nps' ? 0 : 1;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > top)
      return { field: 'value', message: `must be a whole number from ${low} to ${top}` };
  } else if (kind === 'choice') {
    if (typeof value !== 'string' || !(labels.includes(value) || value === 'Other'))
      return { field: 'value', message: 'must be one of the choices' };
  } else if (kind === 'choices') {
    if (question.type === 'pictureSelection') {
      if (!Array.isArray(value) || value.length === 0)
        return { field: 'value', message: 'must pick at least one picture' };
    } else if (
      !Array.isArray(value) ||
      value.length === 0 ||
      value.some((label) => !labels.includes(label) && label !== 'Other')
    )
      return { field: 'value', message: 'must be one or more of the choices' };
  } else if (value !== undefined) {
    return { field: 'value', message: `must be empty for "${rule.condition}"` };
  }
  if (!rule.destination || !(rule.destination === 'end' || laterIds.includes(rule.destination)))
    return { field: 'destination', message: 'must be a later question or the end' };
  return undefined;
}

/** A segment filter item: `{connector, resource}`, the resource a filter or a nested group of items. */
const filterItem: v.GenericSchema<unknown> = v.looseObject({
  connector: v.optional(v.nullable(v.picklist(['and', 'or'], 'must be and or or'))),
  resource: v.union(
    [
      v.lazy(() => v.array(filterItem)),
      v.pipe(
        v.looseObject({
          root: v.looseObject({ type: text, attributeClassName: v.optional(text) }),
          qualifier: v.looseObject({ operator: text }),
          value: v.optional(v.union([text, v.number()])),
        }),
        v.check((filter) => {
          if (filter.root.type !== 'attribute') return true;
          const { operator } = filter.qualifier;
          if (!(ATTRIBUTE_OPERATORS as readonly string[]).includes(operator)) return false;
          if (!filter.root.attributeClassName?.trim()) return false;
          if (NO_VALUE_ATTRIBUTE_OPERATORS.includes(operator)) return true;
          if (filter.value === undefined || String(filter.value).trim() === '') return false;
          return !NUMERIC_ATTRIBUTE_OPERATORS.includes(operator) || !Number.isNaN(Number(filter.value));
        }, 'must name an attribute, an operator and a value (a number for comparisons)'),
      ),
    ],
    'must be a filter or a group of filters',
  ),
});

/** The problem with one attribute filter as the editor holds it, or undefined. */
export function attributeFilterProblem(filter: {
  attribute: string;
  operator: string;
  value: string;
}): { field: 'attribute' | 'operator' | 'value'; message: string } | undefined {
  if (filter.attribute.trim() === '') return { field: 'attribute', message: 'must not be empty' };
  if (!(ATTRIBUTE_OPERATORS as readonly string[]).includes(filter.operator))
    return { field: 'operator', message: 'must be an attribute operator' };
  if (NO_VALUE_ATTRIBUTE_OPERATORS.includes(filter.operator)) return undefined;
  if (filter.value.trim() === '') return { field: 'value', message: 'must not be empty' };
  if (NUMERIC_ATTRIBUTE_OPERATORS.includes(filter.operator) && Number.isNaN(Number(filter.value)))
    return { field: 'value', message: 'must be a number' };
  return undefined;
}

export const welcomeCardEntries = {
  enabled: v.boolean('must be true or false'),
  headline: optionalText,
  html: optionalText,
  fileUrl: optionalText,
  buttonLabel: optionalText,
  timeToFinish: v.optional(v.boolean()),
  showResponseCount: v.optional(v.boolean()),
};
export const thankYouCardEntries = {
  enabled: v.boolean('must be true or false'),
  headline: optionalText,
  subheader: optionalText,
  buttonLabel: optionalText,
  buttonLink: v.optional(v.pipe(text, v.url('must be a URL'))),
  imageUrl: optionalText,
};
export const productOverwritesEntries = {
  brandColor: v.optional(v.nullable(hexColor)),
  highlightBorderColor: v.optional(v.nullable(hexColor)),
  placement: v.optional(v.nullable(placement)),
  clickOutsideClose: v.optional(v.nullable(v.boolean())),
  darkOverlay: v.optional(v.nullable(v.boolean())),
};
export const inlineTriggersEntries = {
  codeConfig: v.optional(v.looseObject({ identifier: nonEmpty })),
  noCodeConfig: v.optional(noCodeConfigSchema),
};
export const stylingEntries = {
  background: v.optional(
    v.looseObject({
      bg: optionalText,
      bgType: v.optional(v.picklist(['animation', 'color', 'image'], 'must be animation, color or image')),
      brightness: v.optional(v.number('must be a number')),
    }),
  ),
  hideProgressBar: v.optional(v.boolean('must be true or false')),
};
export const linkedFlagEntries = {
  flagKey: nonEmpty,
  variants: v.pipe(v.array(nonEmpty), v.minLength(1, 'needs at least one variant')),
};
const optionalFlag = v.optional(v.boolean('must be true or false'));
/** A field that may be null, null when missing. */
const orNull = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema), null);

/** A survey as the editor, the management API and the seed file send it; every field but the name and questions has a default. */
export const surveyInputEntries = {
  name: v.pipe(nonEmpty, v.maxLength(255, 'must be at most 255 characters')),
  type: v.optional(v.picklist(SURVEY_TYPES, oneOf(SURVEY_TYPES)), 'web'),
  status: v.optional(v.picklist(SURVEY_STATUSES, oneOf(SURVEY_STATUSES)), 'inProgress'),
  displayOption: v.optional(v.picklist(DISPLAY_OPTIONS, oneOf(DISPLAY_OPTIONS)), 'displayOnce'),
  /** Seconds, or null. */
  autoClose: orNull(positiveInteger),
  /** Action class names. */
  triggers: v.optional(v.array(nonEmpty), []),
  inlineTriggers: orNull(v.looseObject(inlineTriggersEntries)),
  redirectUrl: orNull(v.pipe(text, v.url('must be a URL'))),
  recontactDays: orNull(nonNegativeInteger),
  welcomeCard: v.optional(v.looseObject(welcomeCardEntries), {
    enabled: false,
    timeToFinish: true,
    showResponseCount: false,
  }),
  questions: v.pipe(
    v.array(v.intersect([questionCommon, questionSchema])),
    v.minLength(1, 'needs at least one question'),
  ),
  thankYouCard: v.optional(v.looseObject(thankYouCardEntries), {
    enabled: true,
    headline: 'Thank you!',
    subheader: 'We appreciate your feedback.',
  }),
  hiddenFields: v.optional(
    v.looseObject({
      enabled: v.boolean('must be true or false'),
      fieldIds: v.optional(v.array(v.pipe(text, v.regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "_" or "-"')))),
    }),
    { enabled: true, fieldIds: [] },
  ),
  /** Seconds. */
  delay: v.optional(nonNegativeInteger, 0),
  autoComplete: orNull(positiveInteger),
  closeOnDate: orNull(v.pipe(text, v.isoTimestamp('must be an ISO 8601 timestamp'))),
  productOverwrites: orNull(v.looseObject(productOverwritesEntries)),
  styling: orNull(v.looseObject(stylingEntries)),
  surveyClosedMessage: orNull(
    v.looseObject({ enabled: optionalFlag, heading: optionalText, subheading: optionalText }),
  ),
  segment: orNull(v.looseObject({ filters: v.array(filterItem) })),
  singleUse: v.optional(
    v.nullable(
      v.looseObject({
        enabled: v.boolean('must be true or false'),
        heading: optionalText,
        subheading: optionalText,
        isEncrypted: v.optional(v.boolean('must be true or false'), true),
      }),
    ),
    { enabled: false, isEncrypted: true },
  ),
  verifyEmail: orNull(v.looseObject({ name: optionalText, subheading: optionalText })),
  pin: orNull(text),
  resultShareKey: orNull(text),
  /** 1-100, or null. */
  displayPercentage: orNull(
    v.pipe(v.number('must be a number'), v.minValue(1, 'must be 1 or more'), v.maxValue(100, 'must be 100 or less')),
  ),
  /** Shown only to identified visitors to whom this flag of the namespace gives one of these values. */
  linkedFlag: orNull(v.strictObject(linkedFlagEntries)),
  /** Shown only to identified visitors whose attributes match this Flipt segment of the namespace. */
  segmentKey: orNull(nonEmpty),
};

/** What the server adds to a stored document: its id, times and environment. */
const storedEntries = { id: text, createdAt: text, updatedAt: text, environmentId: text };

/** A segment as a stored survey carries it (Formbricks' shape). */
export const segmentEntries = {
  ...storedEntries,
  title: text,
  description: v.nullable(text),
  isPrivate: v.boolean(),
  filters: v.array(v.unknown()),
  surveys: v.array(text),
};

/** A survey as the server emits it: every key present, nulls explicit. */
export const storedSurveyEntries = {
  ...surveyInputEntries,
  ...storedEntries,
  createdBy: v.nullable(text),
  segment: v.nullable(v.looseObject(segmentEntries)),
};

/** An action class as the server emits it. */
export const storedActionClassEntries = {
  ...storedEntries,
  name: text,
  description: v.nullable(text),
  type: v.picklist(ACTION_CLASS_TYPES),
  noCodeConfig: v.nullable(noCodeConfigSchema),
};

export const surveyInputSchema = v.pipe(
  v.looseObject(surveyInputEntries),
  v.forward(
    v.check(
      (survey) => new Set(survey.questions.map((q) => q.id)).size === survey.questions.length,
      'question ids must be unique',
    ),
    ['questions'],
  ),
  v.forward(
    v.check(
      (survey) => !(survey.triggers.length > 0 && survey.inlineTriggers),
      'a survey has triggers or inline triggers, never both',
    ),
    ['triggers'],
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const questions = dataset.value.questions as unknown as ParsedQuestion[];
    questions.forEach((question, index) => {
      const laterIds = questions.slice(index + 1).map((q) => String(q.id));
      (question.logic ?? []).forEach((rule, ruleIndex) => {
        const problem = logicProblem(question, rule, laterIds);
        if (!problem) return;
        addIssue({ message: problem.message, path: pathOf(['questions', index, 'logic', ruleIndex, problem.field]) });
      });
    });
  }),
);
export type SurveyInput = v.InferInput<typeof surveyInputSchema>;

/** An issue path from its keys (valibot's items also carry the input, which no reader here uses). */
const pathOf = (keys: (string | number)[]) =>
  keys.map((key) => ({ type: 'unknown', origin: 'value', input: undefined, key, value: undefined })) as unknown as [
    v.IssuePathItem,
    ...v.IssuePathItem[],
  ];

/** The first message for each failing path (dot-joined, `body` for the whole), as editor and API show them. */
export function surveyIssues(input: unknown): Record<string, string> {
  const result = v.safeParse(surveyInputSchema, input);
  if (result.success) return {};
  return issuesByPath(result.issues);
}

export function issuesByPath(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const details: Record<string, string> = {};
  for (const issue of issues) {
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.') || 'body';
    details[path] ??= issue.message;
  }
  return details;
}
