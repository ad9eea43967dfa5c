/**
 * The editor's rules, kept apart from its components so that unit tests pin them: what a question of
 * each type holds, how attribute filters map onto the survey's segment, what the preview draws, and how
 * the draft changes (a reducer).
 */
import type { TSurvey, TSurveyLogic, TSurveyQuestion, TSurveyQuestionType } from '../../../../domain/surveys/types';
import type { SurveyDraft } from '../api';
import { newId } from '../templates';

export const QUESTION_TYPE_LABELS: Record<TSurveyQuestionType, string> = {
  openText: 'Free text',
  multipleChoiceSingle: 'Single select',
  multipleChoiceMulti: 'Multi select',
  nps: 'Net Promoter Score (NPS)',
  cta: 'Call to action',
  rating: 'Rating',
  consent: 'Consent',
  pictureSelection: 'Picture selection',
  date: 'Date',
  fileUpload: 'File upload',
  cal: 'Schedule a meeting (Cal.com)',
};

/** A question of `type` keeping the common fields of `from` (id, headline, subheader, required, labels); logic is dropped, as its conditions depend on the type. */
export function questionOfType(type: TSurveyQuestionType, from?: TSurveyQuestion): TSurveyQuestion {
  const base = {
    id: from?.id ?? newId(),
    headline: from?.headline ?? '',
    required: from?.required ?? true,
    ...(from?.subheader !== undefined && { subheader: from.subheader }),
    ...(from?.buttonLabel !== undefined && { buttonLabel: from.buttonLabel }),
    ...(from?.backButtonLabel !== undefined && { backButtonLabel: from.backButtonLabel }),
  };
  const choices = () => [
    { id: newId(), label: 'Option 1' },
    { id: newId(), label: 'Option 2' },
  ];
  switch (type) {
    case 'openText':
      return { ...base, type, inputType: 'text', placeholder: '' };
    case 'multipleChoiceSingle':
    case 'multipleChoiceMulti':
      return { ...base, type, choices: choices(), shuffleOption: 'none' };
    case 'nps':
      return { ...base, type, lowerLabel: 'Not at all likely', upperLabel: 'Extremely likely' };
    case 'cta':
      return {
        ...base,
        type,
        buttonExternal: false,
        buttonLabel: from?.buttonLabel ?? 'Next',
        dismissButtonLabel: 'Skip',
      };
    case 'rating':
      return { ...base, type, scale: 'star', range: 5, lowerLabel: '', upperLabel: '' };
    case 'consent':
      return { ...base, type, label: 'I agree' };
    case 'pictureSelection':
      return { ...base, type, allowMulti: false, choices: [] };
    case 'date':
      return { ...base, type, format: 'y-M-d' };
    case 'fileUpload':
      return { ...base, type, allowMultipleFiles: false };
    case 'cal':
      return { ...base, type, calUserName: '' };
  }
}

/** A new logic rule for a question: its type's first condition, jumping to the end. */
export const newLogicRule = (condition: TSurveyLogic['condition']): TSurveyLogic => ({ condition, destination: 'end' });

/** An attribute filter as the editor shows it, one row of the survey's segment filters. */
export interface AttributeFilterRow {
  /** The filter item's position in `segment.filters`. */
  index: number;
  connector: 'and' | 'or';
  attribute: string;
  operator: string;
  value: string;
}

interface FilterItem {
  id?: string;
  connector?: 'and' | 'or' | null;
  resource?: {
    id?: string;
    root?: { type?: string; attributeClassName?: string };
    qualifier?: { operator?: string };
    value?: string | number;
  };
}

const isAttributeItem = (item: unknown): item is FilterItem => {
  const resource = (item as FilterItem)?.resource;
  return !Array.isArray(resource) && resource?.root?.type === 'attribute';
};

/** The survey's attribute filters; other filters (groups, person, device) are kept as they are and counted. */
export function attributeFilters(survey: Pick<TSurvey, 'segment'>): { rows: AttributeFilterRow[]; others: number } {
  const filters = survey.segment?.filters ?? [];
  const rows: AttributeFilterRow[] = [];
  filters.forEach((item, index) => {
    if (!isAttributeItem(item)) return;
    rows.push({
      index,
      connector: item.connector === 'or' ? 'or' : 'and',
      attribute: item.resource?.root?.attributeClassName ?? '',
      operator: item.resource?.qualifier?.operator ?? 'equals',
      value: item.resource?.value === undefined ? '' : String(item.resource.value),
    });
  });
  return { rows, others: filters.length - rows.length };
}

/**
 * The survey's segment with one filter row changed, added (index -1) or removed (row undefined); the
 * first item has no connector, as Formbricks writes it. A segment left with no filter becomes null.
 */
export function withAttributeFilter(
  draft: SurveyDraft,
  index: number,
  row: Omit<AttributeFilterRow, 'index'> | undefined,
): SurveyDraft {
  const filters = [...(draft.segment?.filters ?? [])] as FilterItem[];
  if (row === undefined) filters.splice(index, 1);
  else {
    const current = index >= 0 ? filters[index] : undefined;
    const numeric = ['lessThan', 'lessEqual', 'greaterThan', 'greaterEqual'].includes(row.operator);
    const noValue = row.operator === 'isSet' || row.operator === 'isNotSet';
    const { value: _value, ...resource } = current?.resource ?? {};
    const item: FilterItem = {
      ...current,
      id: current?.id ?? newId(),
      connector: row.connector,
      resource: {
        ...resource,
        id: current?.resource?.id ?? newId(),
        root: { ...current?.resource?.root, type: 'attribute', attributeClassName: row.attribute },
        qualifier: { ...current?.resource?.qualifier, operator: row.operator },
        ...(!noValue && {
          value: numeric && row.value.trim() !== '' && !Number.isNaN(Number(row.value)) ? Number(row.value) : row.value,
        }),
      },
    };
    if (index >= 0) filters[index] = item;
    else filters.push(item);
  }
  if (filters.length > 0 && filters[0].connector !== null) filters[0] = { ...filters[0], connector: null };
  if (filters.length === 0) return { ...draft, segment: null };
  const segment = draft.segment ?? {
    id: '',
    title: '',
    description: null,
    isPrivate: true,
    filters: [],
    environmentId: '',
    createdAt: '',
    updatedAt: '',
    surveys: [],
  };
  return { ...draft, segment: { ...segment, filters } };
}

/** What the preview draws for a card of the editor: the welcome card, or one question (its logic left out) then the thank-you card. */
export function previewSurvey(draft: SurveyDraft, card: 'welcome' | number): TSurvey {
  const question = typeof card === 'number' ? draft.questions[card] : undefined;
  return {
    ...draft,
    id: 'preview',
    environmentId: '',
    createdAt: '',
    updatedAt: '',
    delay: 0,
    autoClose: null,
    redirectUrl: null,
    welcomeCard: card === 'welcome' ? draft.welcomeCard : { ...draft.welcomeCard, enabled: false },
    questions: (question ? [question] : draft.questions.slice(0, 1)).map(
      ({ logic: _logic, ...rest }) => rest as TSurveyQuestion,
    ),
  };
}

/** Moves item `from` of a list to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** The survey's problems by field path, as `surveyIssues` finds them. */
export type Issues = Record<string, string>;

/** A card of the editor the preview draws: the welcome card or a question by position. */
export type EditorCard = 'welcome' | number;

/** What the editor holds: the draft being edited and the card the preview draws. */
export interface EditorState {
  draft: SurveyDraft;
  card: EditorCard;
}

/** A change the editor makes to its state. */
export type EditorAction =
  | { type: 'change'; patch: Partial<SurveyDraft> }
  | { type: 'select'; card: EditorCard }
  | { type: 'setQuestion'; index: number; question: TSurveyQuestion }
  | { type: 'moveQuestion'; from: number; to: number }
  | { type: 'removeQuestion'; index: number }
  | { type: 'addQuestion'; question: TSurveyQuestion };

/** The editor's state at the start: the survey's draft, its first question in the preview. */
export const initialEditorState = (draft: SurveyDraft): EditorState => ({ draft, card: 0 });

/**
 * The editor's state after an action. A moved question stays in the preview, an added one is shown,
 * and removing one shows the first question.
 */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { draft } = state;
  switch (action.type) {
    case 'change':
      return { ...state, draft: { ...draft, ...action.patch } };
    case 'select':
      return { ...state, card: action.card };
    case 'setQuestion':
      return {
        ...state,
        draft: { ...draft, questions: draft.questions.map((q, i) => (i === action.index ? action.question : q)) },
      };
    case 'moveQuestion':
      return { draft: { ...draft, questions: moved(draft.questions, action.from, action.to) }, card: action.to };
    case 'removeQuestion':
      return { draft: { ...draft, questions: draft.questions.filter((_, i) => i !== action.index) }, card: 0 };
    case 'addQuestion':
      return { draft: { ...draft, questions: [...draft.questions, action.question] }, card: draft.questions.length };
  }
}
