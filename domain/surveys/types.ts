/**
 * Wire types of the Formbricks 1.6 client API: the survey documents,
 * product and action classes the server syncs, the payloads the loader posts, the loader's stored
 * config and the props the loader hands to the renderer. Every text field is a plain string in 1.6.
 */

export type TSurveyType = 'web' | 'email' | 'link' | 'mobile';
export type TSurveyStatus = 'draft' | 'inProgress' | 'paused' | 'completed';
export type TSurveyDisplayOption = 'displayOnce' | 'displayMultiple' | 'respondMultiple';
export type TPlacement = 'bottomLeft' | 'bottomRight' | 'topLeft' | 'topRight' | 'center';

/** URL rules of a page-URL trigger, compared against the full `location.href`. */
export type TActionClassPageUrlRule =
  | 'exactMatch'
  | 'contains'
  | 'startsWith'
  | 'endsWith'
  | 'notMatch'
  | 'notContains';
export const URL_RULES: readonly TActionClassPageUrlRule[] = [
  'exactMatch',
  'contains',
  'startsWith',
  'endsWith',
  'notMatch',
  'notContains',
];

export interface TActionClassNoCodeConfig {
  /** Legacy discriminator, optional. */
  type?: 'innerHtml' | 'pageUrl' | 'cssSelector';
  pageUrl?: { value: string; rule: TActionClassPageUrlRule };
  innerHtml?: { value: string };
  cssSelector?: { value: string };
}

export type TActionClassType = 'code' | 'noCode' | 'automatic';

export interface TActionClass {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  description: string | null;
  type: TActionClassType;
  noCodeConfig: TActionClassNoCodeConfig | null;
  environmentId: string;
}

/** Built-in action names. */
export const NEW_SESSION = 'New Session';
export const EXIT_INTENT = 'Exit Intent (Desktop)';
export const SCROLL_50 = '50% Scroll';

export interface TSurveyInlineTriggers {
  codeConfig?: { identifier: string };
  noCodeConfig?: TActionClassNoCodeConfig;
}

export interface TSurveyProductOverwrites {
  brandColor?: string | null;
  highlightBorderColor?: string | null;
  placement?: TPlacement | null;
  clickOutsideClose?: boolean | null;
  darkOverlay?: boolean | null;
}

export interface TSurveyWelcomeCard {
  enabled: boolean;
  headline?: string;
  html?: string;
  fileUrl?: string;
  buttonLabel?: string;
  timeToFinish?: boolean;
  showResponseCount?: boolean;
}

export interface TSurveyThankYouCard {
  enabled: boolean;
  headline?: string;
  subheader?: string;
  buttonLabel?: string;
  buttonLink?: string;
  imageUrl?: string;
}

export type TSurveyLogicCondition =
  | 'accepted'
  | 'clicked'
  | 'submitted'
  | 'skipped'
  | 'equals'
  | 'notEquals'
  | 'lessThan'
  | 'lessEqual'
  | 'greaterThan'
  | 'greaterEqual'
  | 'includesAll'
  | 'includesOne'
  | 'uploaded'
  | 'notUploaded'
  | 'booked';

export interface TSurveyLogic {
  condition?: TSurveyLogicCondition;
  value?: string | number | string[];
  /** A question id or "end". */
  destination?: string;
}

export interface TSurveyQuestionBase {
  id: string;
  headline: string;
  subheader?: string;
  imageUrl?: string;
  required: boolean;
  buttonLabel?: string;
  backButtonLabel?: string;
  logic?: TSurveyLogic[];
  isDraft?: boolean;
  scale?: 'number' | 'smiley' | 'star';
  range?: 3 | 4 | 5 | 7 | 10;
}

export type TSurveyOpenTextInputType = 'text' | 'email' | 'url' | 'number' | 'phone';

export interface TSurveyOpenTextQuestion extends TSurveyQuestionBase {
  type: 'openText';
  placeholder?: string;
  longAnswer?: boolean;
  inputType?: TSurveyOpenTextInputType;
}

export interface TSurveyChoice {
  id: string;
  label: string;
}

export interface TSurveyMultipleChoiceQuestion extends TSurveyQuestionBase {
  type: 'multipleChoiceSingle' | 'multipleChoiceMulti';
  choices: TSurveyChoice[];
  shuffleOption?: 'none' | 'all' | 'exceptLast';
  otherOptionPlaceholder?: string;
}

export interface TSurveyNPSQuestion extends TSurveyQuestionBase {
  type: 'nps';
  lowerLabel: string;
  upperLabel: string;
}

export interface TSurveyCTAQuestion extends TSurveyQuestionBase {
  type: 'cta';
  html?: string;
  buttonUrl?: string;
  buttonExternal: boolean;
  dismissButtonLabel?: string;
}

export interface TSurveyRatingQuestion extends TSurveyQuestionBase {
  type: 'rating';
  scale: 'number' | 'smiley' | 'star';
  range: 3 | 4 | 5 | 7 | 10;
  lowerLabel: string;
  upperLabel: string;
}

export interface TSurveyConsentQuestion extends TSurveyQuestionBase {
  type: 'consent';
  html?: string;
  label: string;
  dismissButtonLabel?: string;
  placeholder?: string;
}

export interface TSurveyPictureChoice {
  id: string;
  imageUrl: string;
}

export interface TSurveyPictureSelectionQuestion extends TSurveyQuestionBase {
  type: 'pictureSelection';
  allowMulti: boolean;
  choices: TSurveyPictureChoice[];
}

export interface TSurveyDateQuestion extends TSurveyQuestionBase {
  type: 'date';
  html?: string;
  format: 'M-d-y' | 'd-M-y' | 'y-M-d';
}

export type TAllowedFileExtension =
  | 'png'
  | 'jpeg'
  | 'jpg'
  | 'pdf'
  | 'doc'
  | 'docx'
  | 'xls'
  | 'xlsx'
  | 'ppt'
  | 'pptx'
  | 'plain'
  | 'csv'
  | 'mp4'
  | 'mov'
  | 'avi'
  | 'mkv'
  | 'webm'
  | 'zip'
  | 'rar'
  | '7z'
  | 'tar';

export interface TSurveyFileUploadQuestion extends TSurveyQuestionBase {
  type: 'fileUpload';
  allowMultipleFiles: boolean;
  maxSizeInMB?: number;
  allowedFileExtensions?: TAllowedFileExtension[];
}

export interface TSurveyCalQuestion extends TSurveyQuestionBase {
  type: 'cal';
  calUserName: string;
}

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

export type TSurveyQuestionType = TSurveyQuestion['type'];

export interface TSegment {
  id: string;
  title: string;
  description: string | null;
  isPrivate: boolean;
  filters: unknown[];
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  surveys: string[];
}

/** A survey as the server emits it: every key present, nulls explicit. */
export interface TSurvey {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  type: TSurveyType;
  environmentId: string;
  createdBy: string | null;
  status: TSurveyStatus;
  displayOption: TSurveyDisplayOption;
  /** Seconds, or null. */
  autoClose: number | null;
  /** Action class names. */
  triggers: string[];
  inlineTriggers: TSurveyInlineTriggers | null;
  redirectUrl: string | null;
  recontactDays: number | null;
  welcomeCard: TSurveyWelcomeCard;
  questions: TSurveyQuestion[];
  thankYouCard: TSurveyThankYouCard;
  hiddenFields: { enabled: boolean; fieldIds?: string[] };
  /** Seconds. */
  delay: number;
  autoComplete: number | null;
  closeOnDate: string | null;
  productOverwrites: TSurveyProductOverwrites | null;
  styling: {
    background?: { bg?: string; bgType?: 'animation' | 'color' | 'image'; brightness?: number };
    hideProgressBar?: boolean;
  } | null;
  surveyClosedMessage: { enabled?: boolean; heading?: string; subheading?: string } | null;
  segment: TSegment | null;
  singleUse: { enabled: boolean; heading?: string; subheading?: string; isEncrypted: boolean } | null;
  verifyEmail: { name?: string; subheading?: string } | null;
  pin: string | null;
  resultShareKey: string | null;
  /** 1-100, or null. */
  displayPercentage: number | null;
  /** Shown only to identified visitors to whom this flag of the namespace gives one of these values. */
  linkedFlag: TLinkedFlag | null;
  /** Shown only to identified visitors whose attributes match this Flipt segment of the namespace. */
  segmentKey: string | null;
}

/** A flag a survey is linked to: a variant flag's variant keys, or a boolean flag's `enabled` / `disabled`. */
export interface TLinkedFlag {
  flagKey: string;
  variants: string[];
}

export interface TEnvironment {
  id: string;
  createdAt: string;
  updatedAt: string;
  type: 'development' | 'production';
  productId: string;
  widgetSetupCompleted: boolean;
}

export interface TProduct {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  teamId: string;
  brandColor: string;
  highlightBorderColor: string | null;
  recontactDays: number;
  inAppSurveyBranding: boolean;
  linkSurveyBranding: boolean;
  placement: TPlacement;
  clickOutsideClose: boolean;
  darkOverlay: boolean;
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
