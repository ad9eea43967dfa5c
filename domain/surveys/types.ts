/**
 * Wire types of the Formbricks 1.6 client API: the survey documents,
 * product and action classes the server syncs, the payloads the loader posts, the loader's stored
 * config and the props the loader hands to the renderer. Every text field is a plain string in 1.6.
 *
 * The documents the survey schemas check (schema.ts) take their types from those schemas; the rest
 * (what the loader keeps and posts, the renderer's props) are written here.
 */
import type * as v from 'valibot';
import type * as schema from './schema.js';

export { type TActionClassPageUrlRule, URL_RULES } from './vocabulary.js';
export type { TSurveyLogicCondition, TSurveyQuestionType } from './schema.js';

/**
 * The type of a list of schema entries: what a schema of them outputs (defaults applied), without the
 * index signature a loose schema adds for fields it does not know.
 */
type Fields<E extends v.ObjectEntries> = v.InferOutput<v.ObjectSchema<E, undefined>>;

export type TSurveyType = (typeof schema.SURVEY_TYPES)[number];
export type TSurveyStatus = (typeof schema.SURVEY_STATUSES)[number];
export type TSurveyDisplayOption = (typeof schema.DISPLAY_OPTIONS)[number];
export type TPlacement = (typeof schema.PLACEMENTS)[number];

export type TActionClassNoCodeConfig = Fields<typeof schema.noCodeConfigEntries>;
export type TActionClassType = (typeof schema.ACTION_CLASS_TYPES)[number];
export type TActionClass = Fields<typeof schema.storedActionClassEntries>;

/** Built-in action names. */
export const NEW_SESSION = 'New Session';
export const EXIT_INTENT = 'Exit Intent (Desktop)';
export const SCROLL_50 = '50% Scroll';

export type TSurveyInlineTriggers = Fields<typeof schema.inlineTriggersEntries>;
export type TSurveyProductOverwrites = Fields<typeof schema.productOverwritesEntries>;
export type TSurveyWelcomeCard = Fields<typeof schema.welcomeCardEntries>;
export type TSurveyThankYouCard = Fields<typeof schema.thankYouCardEntries>;
export type TSurveyLogic = Fields<typeof schema.logicEntries>;

export type TSurveyQuestionBase = Fields<typeof schema.questionCommonEntries>;
/** A question of one type: the fields every question has and those of its type. */
type QuestionOf<E extends v.ObjectEntries> = Fields<typeof schema.questionCommonEntries & E>;

export type TSurveyOpenTextInputType = (typeof schema.OPEN_TEXT_INPUT_TYPES)[number];
export type TSurveyOpenTextQuestion = QuestionOf<typeof schema.openTextEntries>;
export type TSurveyChoice = Fields<typeof schema.choiceEntries>;
export type TSurveyMultipleChoiceQuestion = QuestionOf<typeof schema.multipleChoiceEntries>;
export type TSurveyNPSQuestion = QuestionOf<typeof schema.npsEntries>;
export type TSurveyCTAQuestion = QuestionOf<typeof schema.ctaEntries>;
export type TSurveyRatingQuestion = QuestionOf<typeof schema.ratingEntries>;
export type TSurveyConsentQuestion = QuestionOf<typeof schema.consentEntries>;
export type TSurveyPictureChoice = Fields<typeof schema.pictureChoiceEntries>;
export type TSurveyPictureSelectionQuestion = QuestionOf<typeof schema.pictureSelectionEntries>;
export type TSurveyDateQuestion = QuestionOf<typeof schema.dateEntries>;
export type TAllowedFileExtension = (typeof schema.FILE_EXTENSIONS)[number];
export type TSurveyFileUploadQuestion = QuestionOf<typeof schema.fileUploadEntries>;
export type TSurveyCalQuestion = QuestionOf<typeof schema.calEntries>;

export type TSurveyQuestion =
  | TSurveyOpenTextQuestion
  | TSurveyMultipleChoiceQuestion
  | TSurveyNPSQuestion
  | TSurveyCTAQuestion
  | TSurveyRatingQuestion
  | TSurveyConsentQuestion
  | TSurveyPictureSelectionQuestion
  | TSurveyDateQuestion
  | TSurveyFileUploadQuestion
  | TSurveyCalQuestion;

export type TSegment = Fields<typeof schema.segmentEntries>;

/** A survey as the server emits it: every key present, nulls explicit. */
export type TSurvey = Omit<Fields<typeof schema.storedSurveyEntries>, 'questions'> & { questions: TSurveyQuestion[] };

/** A flag a survey is linked to: a variant flag's variant keys, or a boolean flag's `enabled` / `disabled`. */
export type TLinkedFlag = Fields<typeof schema.linkedFlagEntries>;

export interface TEnvironment {
  id: string;
  createdAt: string;
  updatedAt: string;
  type: 'development' | 'production';
  productId: string;
  widgetSetupCompleted: boolean;
}

/** A product: its settings (the schema's, defaults applied), name, team and environments. */
export interface TProduct extends schema.ProductSettings {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  teamId: string;
  environments: TEnvironment[];
}

export type TAttributes = Record<string, string>;

/** `data` of GET /in-app/sync[/{userId}]. `person` is null for anonymous users and absent with `version`. */
export interface TJsStateSync {
  surveys: TSurvey[];
  noCodeActionClasses: TActionClass[];
  product: TProduct;
  person?: { id: string; userId: string; attributes?: Record<string, string | number> } | null;
}

/** A display the loader records locally for an anonymous visitor. */
export interface TJsDisplay {
  surveyId: string;
  /** ISO string. */
  createdAt: string;
  responded: boolean;
}

export interface TJsState {
  surveys: TSurvey[];
  noCodeActionClasses: TActionClass[];
  product: TProduct;
  attributes: TAttributes;
  /** Anonymous users only. */
  displays?: TJsDisplay[];
}

/** The value stored under the local-storage key `formbricks-js`. */
export interface TJsConfig {
  environmentId: string;
  apiHost: string;
  userId?: string;
  state: TJsState;
  /** ISO string. */
  expiresAt: string;
  status: 'success' | 'error';
}

export interface TJsConfigInput {
  environmentId: string;
  apiHost: string;
  userId?: string;
  attributes?: Record<string, string | number>;
  debug?: boolean;
  errorHandler?: (error: unknown) => void;
  /** Ensign: where to load the renderer from when `window.formbricksSurveys` is absent. */
  rendererUrl?: string;
}

export type TResponseValue = string | number | string[] | Record<string, string>;
export type TResponseData = Record<string, TResponseValue>;
export type TResponseTtc = Record<string, number>;

/** What the renderer hands to `onResponse`: the delta `data` of one step, the cumulative `ttc`. */
export interface TResponseUpdate {
  data: TResponseData;
  ttc?: TResponseTtc;
  finished: boolean;
}

/** Body of POST /responses. */
export interface TResponseInput {
  surveyId: string;
  userId: string | null;
  singleUseId: string | null;
  data: TResponseData;
  ttc?: TResponseTtc;
  finished: boolean;
}

/** Body of PUT /responses/{responseId}. */
export interface TResponseUpdateInput {
  finished: boolean;
  data: TResponseData;
  ttc?: TResponseTtc;
}

/** Body of POST /displays. */
export interface TDisplayCreateInput {
  surveyId: string;
  userId?: string;
}

/** Body of PUT /displays/{displayId}. */
export interface TDisplayUpdateInput {
  responseId: string;
}

/** Body of POST /actions. */
export interface TActionInput {
  environmentId: string;
  userId: string;
  name: string;
}

/** Body of POST /people. */
export interface TPersonCreateInput {
  environmentId: string;
  userId: string;
}

/** Body of POST /people/{userId}; the answer's data carries `changed`. */
export interface TPersonUpdateInput {
  attributes: Record<string, string | number>;
}
export interface TPersonUpdateResult {
  changed: boolean;
  message?: string;
}

/** Body of POST /storage. */
export interface TUploadFileConfig {
  allowedFileExtensions?: string[];
  surveyId?: string;
}
export interface TStorageUploadInput extends TUploadFileConfig {
  fileName: string;
  fileType: string;
}
/** `data` of POST /storage. */
export interface TStorageUploadResult {
  signedUrl: string;
  fileUrl: string;
  signingData?: { signature: string; timestamp: number; uuid: string } | null;
  presignedFields?: Record<string, string> | null;
  updatedFileName?: string;
}

/** The 14 props @formbricks/js 1.6.5 passes to `renderSurveyModal`. */
export interface SurveyModalProps {
  survey: TSurvey;
  brandColor: string;
  isBrandingEnabled: boolean;
  clickOutside: boolean;
  darkOverlay: boolean;
  highlightBorderColor: string | null;
  placement: TPlacement;
  getSetIsError: (setter: (value: boolean) => void) => void;
  getSetIsResponseSendingFinished: (setter: (value: boolean) => void) => void;
  onDisplay: () => Promise<void>;
  onResponse: (update: TResponseUpdate) => void;
  onClose: () => Promise<void> | void;
  onFileUpload: (file: File, config?: TUploadFileConfig) => Promise<string>;
  onRetry: () => void;
}

/** Optional props the 1.6 renderer also accepts (never passed by the 1.6.5 loader). */
export interface SurveyModalOptionalProps {
  onFinished?: () => void;
  responseCount?: number;
  activeQuestionId?: string;
  onActiveQuestionChange?: (questionId: string) => void;
  autoFocus?: boolean;
  isRedirectDisabled?: boolean;
  prefillResponseData?: TResponseData;
}

export type RenderSurveyModalProps = SurveyModalProps & SurveyModalOptionalProps;

/** The props that decide how a survey looks, without its callbacks. */
export type SurveyLook = Pick<
  SurveyModalProps,
  'survey' | 'brandColor' | 'isBrandingEnabled' | 'clickOutside' | 'darkOverlay' | 'highlightBorderColor' | 'placement'
>;

/** What `window.formbricksSurveys` exposes. */
export interface FormbricksSurveys {
  renderSurveyModal: (props: RenderSurveyModalProps) => void;
  /** Draws in the flow of the element `containerId` names (1.6's inline surveys; the console's preview). */
  renderSurveyInline?: (props: RenderSurveyModalProps & { containerId: string }) => void;
}
