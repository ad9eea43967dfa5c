import * as v from 'valibot';
import { URL_RULES, type TProduct, type TSurvey } from '../../domain/surveys/types.js';
import { parseInput } from './validation.js';

/** Product settings the widget reads, with Formbricks' database defaults. */
export type ProductSettings = Pick<
  TProduct,
  | 'brandColor'
  | 'highlightBorderColor'
  | 'recontactDays'
  | 'inAppSurveyBranding'
  | 'linkSurveyBranding'
  | 'placement'
  | 'clickOutsideClose'
  | 'darkOverlay'
>;

const hexColor = v.pipe(v.string(), v.regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'must be a hex colour such as #64748b'));
const placement = v.picklist(
  ['bottomLeft', 'bottomRight', 'topLeft', 'topRight', 'center'],
  'must be bottomLeft, bottomRight, topLeft, topRight or center',
);
const nonNegativeInteger = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be 0 or more'));

export const productSettingsSchema = v.strictObject({
  brandColor: v.optional(hexColor, '#64748b'),
  highlightBorderColor: v.optional(v.nullable(hexColor), null),
  recontactDays: v.optional(nonNegativeInteger, 7),
  inAppSurveyBranding: v.optional(v.boolean(), true),
  linkSurveyBranding: v.optional(v.boolean(), true),
  placement: v.optional(placement, 'bottomRight'),
  clickOutsideClose: v.optional(v.boolean(), true),
  darkOverlay: v.optional(v.boolean(), false),
});

const noCodeConfigSchema = v.pipe(
  v.looseObject({
    type: v.optional(v.picklist(['innerHtml', 'pageUrl', 'cssSelector'])),
    pageUrl: v.optional(
      v.strictObject({
        value: v.string(),
        rule: v.picklist(URL_RULES, `must be one of ${URL_RULES.join(', ')}`),
      }),
    ),
    innerHtml: v.optional(v.strictObject({ value: v.string() })),
    cssSelector: v.optional(v.strictObject({ value: v.string() })),
  }),
  v.check(
    (config) => Boolean(config.pageUrl || config.innerHtml || config.cssSelector),
    'needs at least one of pageUrl, innerHtml or cssSelector',
  ),
);

export const actionClassInputSchema = v.pipe(
  v.strictObject({
    name: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255)),
    description: v.optional(v.nullable(v.string()), null),
    type: v.optional(v.picklist(['code', 'noCode', 'automatic'], 'must be code, noCode or automatic'), 'code'),
    noCodeConfig: v.optional(v.nullable(noCodeConfigSchema), null),
  }),
  v.forward(
    v.check((input) => input.type !== 'noCode' || input.noCodeConfig !== null, 'is required for a noCode action class'),
    ['noCodeConfig'],
  ),
);
export type ActionClassInput = v.InferOutput<typeof actionClassInputSchema>;

const QUESTION_TYPES = [
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

const text = v.string('must be a string');
const choices = v.pipe(v.array(v.strictObject({ id: text, label: text })), v.minLength(1, 'needs at least one choice'));

/** Per type, the fields a question of that type cannot do without. */
const questionSchema = v.variant(
  'type',
  [
    v.looseObject({
      type: v.literal('openText'),
      inputType: v.optional(v.picklist(['text', 'email', 'url', 'number', 'phone'])),
    }),
    v.looseObject({
      type: v.picklist(['multipleChoiceSingle', 'multipleChoiceMulti']),
      choices,
      shuffleOption: v.optional(v.picklist(['none', 'all', 'exceptLast'])),
    }),
    v.looseObject({ type: v.literal('nps'), lowerLabel: v.optional(text, ''), upperLabel: v.optional(text, '') }),
    v.looseObject({ type: v.literal('cta'), buttonExternal: v.optional(v.boolean(), false) }),
    v.looseObject({
      type: v.literal('rating'),
      scale: v.picklist(['number', 'smiley', 'star'], 'must be number, smiley or star'),
      range: v.picklist([3, 4, 5, 7, 10], 'must be 3, 4, 5, 7 or 10'),
      lowerLabel: v.optional(text, ''),
      upperLabel: v.optional(text, ''),
    }),
    v.looseObject({ type: v.literal('consent'), label: text }),
    v.looseObject({
      type: v.literal('pictureSelection'),
      allowMulti: v.optional(v.boolean(), false),
      choices: v.pipe(
        v.array(v.strictObject({ id: text, imageUrl: text })),
        v.minLength(2, 'needs at least two pictures'),
      ),
    }),
    v.looseObject({ type: v.literal('date'), format: v.optional(v.picklist(['M-d-y', 'd-M-y', 'y-M-d']), 'y-M-d') }),
    v.looseObject({
      type: v.literal('fileUpload'),
      allowMultipleFiles: v.optional(v.boolean(), false),
      maxSizeInMB: v.optional(v.pipe(v.number(), v.minValue(0))),
    }),
    v.looseObject({ type: v.literal('cal'), calUserName: v.pipe(text, v.minLength(1, 'must not be empty')) }),
  ],
  `must be one of ${QUESTION_TYPES.join(', ')}`,
);

const questionCommon = v.looseObject({
  id: v.pipe(text, v.regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "_" or "-"')),
  headline: text,
  required: v.optional(v.boolean(), true),
  logic: v.optional(v.array(v.looseObject({ destination: v.optional(text) }))),
});

const nullableObject = v.optional(v.nullable(v.record(v.string(), v.unknown())), null);

export const surveyInputSchema = v.pipe(
  v.looseObject({
    name: v.pipe(text, v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255)),
    type: v.optional(v.picklist(['web', 'email', 'link', 'mobile'], 'must be web, email, link or mobile'), 'web'),
    status: v.optional(
      v.picklist(['draft', 'inProgress', 'paused', 'completed'], 'must be draft, inProgress, paused or completed'),
      'inProgress',
    ),
    displayOption: v.optional(
      v.picklist(
        ['displayOnce', 'displayMultiple', 'respondMultiple'],
        'must be displayOnce, displayMultiple or respondMultiple',
      ),
      'displayOnce',
    ),
    autoClose: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), null),
    triggers: v.optional(v.array(v.pipe(text, v.minLength(1, 'must not be empty'))), []),
    inlineTriggers: nullableObject,
    redirectUrl: v.optional(v.nullable(v.pipe(text, v.url('must be a URL'))), null),
    recontactDays: v.optional(v.nullable(nonNegativeInteger), null),
    welcomeCard: v.optional(v.looseObject({ enabled: v.boolean() }), {
      enabled: false,
      timeToFinish: true,
      showResponseCount: false,
    }),
    questions: v.pipe(
      v.array(v.intersect([questionCommon, questionSchema])),
      v.minLength(1, 'needs at least one question'),
    ),
    thankYouCard: v.optional(v.looseObject({ enabled: v.boolean() }), {
      enabled: true,
      headline: 'Thank you!',
      subheader: 'We appreciate your feedback.',
    }),
    hiddenFields: v.optional(v.looseObject({ enabled: v.boolean() }), { enabled: true, fieldIds: [] }),
    delay: v.optional(nonNegativeInteger, 0),
    autoComplete: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), null),
    closeOnDate: v.optional(v.nullable(v.pipe(text, v.isoTimestamp('must be an ISO 8601 timestamp'))), null),
    productOverwrites: nullableObject,
    styling: nullableObject,
    surveyClosedMessage: nullableObject,
    segment: v.optional(v.nullable(v.looseObject({ filters: v.array(v.unknown()) })), null),
    singleUse: v.optional(v.nullable(v.looseObject({ enabled: v.boolean() })), { enabled: false, isEncrypted: true }),
    verifyEmail: nullableObject,
    pin: v.optional(v.nullable(text), null),
    resultShareKey: v.optional(v.nullable(text), null),
    displayPercentage: v.optional(v.nullable(v.pipe(v.number(), v.minValue(1), v.maxValue(100))), null),
  }),
  v.check(
    (survey) => new Set(survey.questions.map((q) => q.id)).size === survey.questions.length,
    'question ids must be unique',
  ),
  v.forward(
    v.check((survey) => {
      const ids = new Set(survey.questions.map((q) => q.id));
      return survey.questions.every((q) =>
        (q.logic ?? []).every(
          (rule) => rule.destination === undefined || rule.destination === 'end' || ids.has(rule.destination),
        ),
      );
    }, 'every logic destination must be a question id of this survey or "end"'),
    ['questions'],
  ),
);

/** A survey document as stored: every TSurvey key except the ones the row holds. */
export type SurveyDocument = Omit<TSurvey, 'id' | 'createdAt' | 'updatedAt' | 'environmentId' | 'name'>;

const ROW_KEYS = new Set(['id', 'createdAt', 'updatedAt', 'environmentId', 'name']);

/** Validates a survey given by the management API or a seed file and fills every key the wire needs. */
export function parseSurveyInput(input: unknown): { name: string; document: SurveyDocument } {
  const survey = parseInput(surveyInputSchema, input);
  const document = Object.fromEntries(Object.entries(survey).filter(([key]) => !ROW_KEYS.has(key)));
  return {
    name: survey.name,
    document: { createdBy: null, ...document } as unknown as SurveyDocument,
  };
}
