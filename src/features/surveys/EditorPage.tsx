import '../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'wouter';
import {
  ATTRIBUTE_OPERATORS,
  DATE_FORMATS,
  DISPLAY_OPTIONS,
  FILE_EXTENSIONS,
  LOGIC_CONDITIONS,
  logicValueKind,
  OPEN_TEXT_INPUT_TYPES,
  PLACEMENTS,
  QUESTION_TYPES,
  RATING_RANGES,
  RATING_SCALES,
  SHUFFLE_OPTIONS,
  surveyIssues,
} from '../../../domain/surveys/schema';
import type {
  TSurvey,
  TSurveyLogic,
  TSurveyQuestion,
  TSurveyQuestionType,
  TSurveyStatus,
} from '../../../domain/surveys/types';
import { errorMessage } from '../../api/client';
import { READ_ONLY_TITLE, useReadOnly } from '../../api/writable';
import { Dialog } from '../../components/Dialog';
import { ReasonButton } from '../../components/Tooltip';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { toastError, toastSuccess } from '../../stores/toasts';
import { ActionClassEditor } from './ActionsPage';
import {
  actionClassesQuery,
  type SurveyDraft,
  type SurveyEnvironment,
  surveyPaths,
  surveyQuery,
  useSaveSurvey,
} from './api';
import {
  attributeFilters,
  moved,
  newLogicRule,
  previewSurvey,
  QUESTION_TYPE_LABELS,
  questionOfType,
  withAttributeFilter,
} from './editor-model';
import { PLACEMENT_LABELS } from './labels';
import { FlagTargeting } from './FlagTargeting';
import { Preview } from './Preview';
import { draftOf, STATUS_LABELS } from './status';
import { SurveysArea } from './SurveysArea';
import { newId } from './templates';

export default function EditorPage({ params }: { params: Record<string, string | undefined> }) {
  const namespaceKey = useNamespaceKey();
  return (
    <SurveysArea environmentId={params.environmentId} tab="surveys">
      {(environment) => (
        <EditorLoader environment={environment} surveyId={params.surveyId!} namespaceKey={namespaceKey} />
      )}
    </SurveysArea>
  );
}

function EditorLoader({
  environment,
  surveyId,
  namespaceKey,
}: {
  environment: SurveyEnvironment;
  surveyId: string;
  namespaceKey: string;
}) {
  const survey = useQuery(surveyQuery(namespaceKey, environment.id, surveyId));
  if (survey.isPending) return <p className="muted">Loading…</p>;
  if (survey.isError) return <p role="alert">{survey.error.message}</p>;
  return <SurveyEditor key={survey.data.updatedAt} survey={survey.data} environment={environment} />;
}

/** The next statuses an operator can move a survey to, with the button that does it. */
const TRANSITIONS: Record<TSurveyStatus, { status: TSurveyStatus; label: string }[]> = {
  draft: [{ status: 'inProgress', label: 'Publish' }],
  inProgress: [
    { status: 'paused', label: 'Pause' },
    { status: 'completed', label: 'Complete' },
  ],
  paused: [
    { status: 'inProgress', label: 'Resume' },
    { status: 'completed', label: 'Complete' },
  ],
  completed: [{ status: 'inProgress', label: 'Resume' }],
};

type Issues = Record<string, string>;

export function SurveyEditor({ survey, environment }: { survey: TSurvey; environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const readOnly = useReadOnly();
  const initial = useMemo(() => draftOf(survey), [survey]);
  const [draft, setDraft] = useState<SurveyDraft>(initial);
  const [card, setCard] = useState<'welcome' | number>(0);
  const save = useSaveSurvey(namespaceKey, environment.id);
  const issues: Issues = useMemo(() => surveyIssues(draft), [draft]);
  const problems = Object.keys(issues).length;
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const preview = useMemo(() => previewSurvey(draft, card), [draft, card]);
  const change = (patch: Partial<SurveyDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const reason = readOnly ? READ_ONLY_TITLE : problems > 0 ? 'Fix the problems first' : undefined;

  const persist = (next: SurveyDraft, message: string) =>
    save
      .mutateAsync({ id: survey.id, survey: next })
      .then(() => toastSuccess(message))
      .catch((error) => toastError(errorMessage(error)));

  return (
    <div className="editor">
      <div className="editor-form">
        <div className="editor-toolbar">
          <Link href={namespacePath(namespaceKey, surveyPaths.list(environment.id))}>← All surveys</Link>
          <span className="badge" data-testid="survey-status">
            {STATUS_LABELS[draft.status]}
          </span>
          {/* #31 (results) adds its Results link here, #32 (linked flags) its fields to the Audience section. */}
        </div>
        <TextField label="Survey name" value={draft.name} error={issues.name} onChange={(name) => change({ name })} />
        <div className="editor-actions">
          <ReasonButton
            className="button button-primary"
            disabled={!dirty || save.isPending}
            reason={reason}
            onClick={() => persist(draft, 'Successfully saved survey')}
          >
            Save
          </ReasonButton>
          {TRANSITIONS[draft.status].map((transition) => (
            <ReasonButton
              key={transition.status}
              className="button"
              disabled={save.isPending}
              reason={reason}
              onClick={() =>
                persist(
                  { ...draft, status: transition.status },
                  `Successfully saved survey: ${STATUS_LABELS[transition.status].toLowerCase()}`,
                )
              }
            >
              {transition.label}
            </ReasonButton>
          ))}
          {problems > 0 && (
            <span className="field-error" role="status">
              {problems === 1 ? '1 problem' : `${problems} problems`} to fix before saving
            </span>
          )}
        </div>

        <Section title="Welcome card">
          <WelcomeCard draft={draft} issues={issues} change={change} onFocus={() => setCard('welcome')} />
        </Section>

        <Section title="Questions">
          {draft.questions.map((question, index) => (
            <QuestionEditor
              key={question.id}
              question={question}
              index={index}
              draft={draft}
              issues={issues}
              selected={card === index}
              onSelect={() => setCard(index)}
              onChange={(next) => change({ questions: draft.questions.map((q, i) => (i === index ? next : q)) })}
              onMove={(to) => {
                change({ questions: moved(draft.questions, index, to) });
                setCard(to);
              }}
              onRemove={() => {
                change({ questions: draft.questions.filter((_, i) => i !== index) });
                setCard(0);
              }}
            />
          ))}
          {issues.questions && <p className="field-error">{issues.questions}</p>}
          <AddQuestion
            onAdd={(type) => {
              change({ questions: [...draft.questions, questionOfType(type)] });
              setCard(draft.questions.length);
            }}
          />
        </Section>

        <Section title="Thank-you card">
          <ThankYouCard draft={draft} issues={issues} change={change} />
        </Section>

        <Section title="Hidden fields">
          <Check
            label="Hidden fields on"
            checked={draft.hiddenFields.enabled}
            onChange={(enabled) => change({ hiddenFields: { ...draft.hiddenFields, enabled } })}
          />
          <TextField
            label="Field ids (comma separated)"
            value={(draft.hiddenFields.fieldIds ?? []).join(', ')}
            error={Object.entries(issues).find(([path]) => path.startsWith('hiddenFields'))?.[1]}
            onChange={(text) =>
              change({
                hiddenFields: {
                  ...draft.hiddenFields,
                  fieldIds: text
                    .split(',')
                    .map((id) => id.trim())
                    .filter(Boolean),
                },
              })
            }
          />
        </Section>

        <Section title="Triggers">
          <Triggers draft={draft} environment={environment} issues={issues} change={change} />
        </Section>

        <Section title="Audience">
          <Audience draft={draft} issues={issues} change={change} />
        </Section>

        <Section title="Flag and segment">
          <FlagTargeting linkedFlag={draft.linkedFlag} segmentKey={draft.segmentKey} issues={issues} change={change} />
        </Section>

        <Section title="Display">
          <Display draft={draft} issues={issues} change={change} />
        </Section>

        <Section title="Look">
          <Look draft={draft} environment={environment} issues={issues} change={change} />
        </Section>
      </div>
      <Preview survey={preview} environment={environment} />
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="panel editor-section">
      <legend className="panel-title">{title}</legend>
      {children}
    </fieldset>
  );
}

let fieldCount = 0;
const useFieldId = () => useMemo(() => `editor-field-${++fieldCount}`, []);

function TextField({
  label,
  value,
  error,
  onChange,
  onFocus,
  multiline,
  placeholder,
}: {
  label: string;
  value: string | undefined;
  error?: string;
  onChange(value: string): void;
  onFocus?(): void;
  multiline?: boolean;
  placeholder?: string;
}) {
  const id = useFieldId();
  const props = {
    id,
    value: value ?? '',
    placeholder,
    onFocus,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...props} rows={2} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...props} onChange={(event) => onChange(event.target.value)} />
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** A number input whose empty value is null (the field's "off"). */
function NumberField({
  label,
  value,
  error,
  onChange,
  hint,
  min,
}: {
  label: string;
  value: number | null | undefined;
  error?: string;
  onChange(value: number | null): void;
  hint?: string;
  min?: number;
}) {
  const id = useFieldId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value === '' ? null : event.target.valueAsNumber)}
      />
      {hint && <span className="muted">{hint}</span>}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

function SelectField<T extends string | number>({
  label,
  value,
  options,
  onChange,
  error,
}: {
  label: string;
  value: T | undefined;
  options: readonly (readonly [T, string])[];
  onChange(value: T): void;
  error?: string;
}) {
  const id = useFieldId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value === undefined ? '' : String(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(options.find(([option]) => String(option) === event.target.value)![0])}
      >
        {value === undefined && <option value="">Choose…</option>}
        {options.map(([option, text]) => (
          <option key={String(option)} value={String(option)}>
            {text}
          </option>
        ))}
      </select>
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange(value: boolean): void }) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

const same = <T extends string | number>(values: readonly T[]) =>
  values.map((value) => [value, String(value)] as const);

interface PartProps {
  draft: SurveyDraft;
  issues: Issues;
  change(patch: Partial<SurveyDraft>): void;
}

function WelcomeCard({ draft, issues, change, onFocus }: PartProps & { onFocus(): void }) {
  const card = draft.welcomeCard;
  const set = (patch: Partial<SurveyDraft['welcomeCard']>) => change({ welcomeCard: { ...card, ...patch } });
  return (
    <>
      <Check
        label="Show a welcome card"
        checked={card.enabled}
        onChange={(enabled) => {
          set({ enabled });
          onFocus();
        }}
      />
      {card.enabled && (
        <>
          <TextField
            label="Headline"
            value={card.headline}
            onFocus={onFocus}
            error={issues['welcomeCard.headline']}
            onChange={(headline) => set({ headline })}
          />
          <TextField
            label="Text (HTML)"
            multiline
            value={card.html}
            onFocus={onFocus}
            onChange={(html) => set({ html })}
          />
          <TextField label="Logo URL" value={card.fileUrl} onFocus={onFocus} onChange={(fileUrl) => set({ fileUrl })} />
          <TextField
            label="Button label"
            value={card.buttonLabel}
            onFocus={onFocus}
            onChange={(buttonLabel) => set({ buttonLabel })}
          />
          <Check
            label="Show the time to finish"
            checked={card.timeToFinish ?? false}
            onChange={(timeToFinish) => set({ timeToFinish })}
          />
          <Check
            label="Show the response count"
            checked={card.showResponseCount ?? false}
            onChange={(showResponseCount) => set({ showResponseCount })}
          />
        </>
      )}
    </>
  );
}

function ThankYouCard({ draft, issues, change }: PartProps) {
  const card = draft.thankYouCard;
  const set = (patch: Partial<SurveyDraft['thankYouCard']>) => change({ thankYouCard: { ...card, ...patch } });
  return (
    <>
      <Check label="Show a thank-you card" checked={card.enabled} onChange={(enabled) => set({ enabled })} />
      {card.enabled && (
        <>
          <TextField label="Headline" value={card.headline} onChange={(headline) => set({ headline })} />
          <TextField label="Text" value={card.subheader} onChange={(subheader) => set({ subheader })} />
          <TextField
            label="Button label"
            value={card.buttonLabel}
            onChange={(buttonLabel) => set({ buttonLabel: buttonLabel || undefined })}
          />
          <TextField
            label="Button link"
            value={card.buttonLink}
            error={issues['thankYouCard.buttonLink']}
            onChange={(buttonLink) => set({ buttonLink: buttonLink || undefined })}
          />
        </>
      )}
    </>
  );
}

function AddQuestion({ onAdd }: { onAdd(type: TSurveyQuestionType): void }) {
  const [type, setType] = useState<TSurveyQuestionType>('openText');
  return (
    <div className="toolbar">
      <SelectField<TSurveyQuestionType>
        label="New question type"
        value={type}
        options={QUESTION_TYPES.map((value) => [value, QUESTION_TYPE_LABELS[value]] as const)}
        onChange={setType}
      />
      <button type="button" className="button" onClick={() => onAdd(type)}>
        Add question
      </button>
    </div>
  );
}

function QuestionEditor({
  question,
  index,
  draft,
  issues,
  selected,
  onSelect,
  onChange,
  onMove,
  onRemove,
}: {
  question: TSurveyQuestion;
  index: number;
  draft: SurveyDraft;
  issues: Issues;
  selected: boolean;
  onSelect(): void;
  onChange(question: TSurveyQuestion): void;
  onMove(to: number): void;
  onRemove(): void;
}) {
  const at = (field: string) => issues[`questions.${index}.${field}`];
  const set = (patch: Record<string, unknown>) => onChange({ ...question, ...patch } as TSurveyQuestion);
  const count = draft.questions.length;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focusing any field of the question selects it for the preview; the Preview button does it from the keyboard
    <div className={selected ? 'question question-selected' : 'question'} onFocus={onSelect}>
      <div className="question-header">
        <strong>
          {index + 1}. {QUESTION_TYPE_LABELS[question.type]}
        </strong>
        <div className="question-tools">
          <button type="button" className="link-button" onClick={onSelect} aria-pressed={selected}>
            Preview
          </button>
          <button type="button" className="link-button" disabled={index === 0} onClick={() => onMove(index - 1)}>
            Move up
          </button>
          <button
            type="button"
            className="link-button"
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            Move down
          </button>
          <button type="button" className="link-button" disabled={count === 1} onClick={onRemove}>
            Delete question {index + 1}
          </button>
        </div>
      </div>
      <div className="form-grid">
        <SelectField
          label="Type"
          value={question.type}
          options={QUESTION_TYPES.map((value) => [value, QUESTION_TYPE_LABELS[value]] as const)}
          onChange={(type) => onChange(questionOfType(type, question))}
        />
        <TextField
          label="Question"
          value={question.headline}
          error={at('headline')}
          onChange={(headline) => set({ headline })}
        />
        <TextField
          label="Description"
          value={question.subheader}
          onChange={(subheader) => set({ subheader: subheader || undefined })}
        />
        <Check label="Required" checked={question.required} onChange={(required) => set({ required })} />
        {question.type !== 'cta' && question.type !== 'consent' && (
          <TextField
            label="Next button label"
            value={question.buttonLabel}
            onChange={(buttonLabel) => set({ buttonLabel: buttonLabel || undefined })}
          />
        )}
        <TextField
          label="Back button label"
          value={question.backButtonLabel}
          onChange={(backButtonLabel) => set({ backButtonLabel: backButtonLabel || undefined })}
        />
        <TypeFields question={question} at={at} set={set} />
      </div>
      <LogicEditor
        question={question}
        index={index}
        draft={draft}
        issues={issues}
        onChange={(logic) => set({ logic })}
      />
    </div>
  );
}

function TypeFields({
  question,
  at,
  set,
}: {
  question: TSurveyQuestion;
  at(field: string): string | undefined;
  set(patch: Record<string, unknown>): void;
}) {
  switch (question.type) {
    case 'openText':
      return (
        <>
          <SelectField
            label="Input type"
            value={question.inputType ?? 'text'}
            options={same(OPEN_TEXT_INPUT_TYPES)}
            onChange={(inputType) => set({ inputType })}
          />
          <TextField
            label="Placeholder"
            value={question.placeholder}
            onChange={(placeholder) => set({ placeholder })}
          />
          <Check
            label="Long answer"
            checked={question.longAnswer ?? false}
            onChange={(longAnswer) => set({ longAnswer })}
          />
        </>
      );
    case 'multipleChoiceSingle':
    case 'multipleChoiceMulti': {
      const other = question.choices.find((choice) => choice.id === 'other');
      const plain = question.choices.filter((choice) => choice.id !== 'other');
      const setChoices = (choices: typeof plain) => set({ choices: other ? [...choices, other] : choices });
      return (
        <>
          <fieldset className="choice-editor">
            <legend>Choices</legend>
            {plain.map((choice, i) => (
              <div key={choice.id} className="input-with-button">
                <TextField
                  label={`Choice ${i + 1}`}
                  value={choice.label}
                  error={at(`choices.${question.choices.indexOf(choice)}.label`)}
                  onChange={(label) => setChoices(plain.map((c) => (c === choice ? { ...c, label } : c)))}
                />
                <button
                  type="button"
                  className="link-button"
                  disabled={plain.length === 1}
                  onClick={() => setChoices(plain.filter((c) => c !== choice))}
                >
                  Remove choice {i + 1}
                </button>
              </div>
            ))}
            {at('choices') && <span className="field-error">{at('choices')}</span>}
            <button
              type="button"
              className="link-button"
              onClick={() => setChoices([...plain, { id: newId(), label: `Option ${plain.length + 1}` }])}
            >
              Add choice
            </button>
          </fieldset>
          <Check
            label="Offer “Other” with a text field"
            checked={other !== undefined}
            onChange={(on) => set({ choices: on ? [...plain, { id: 'other', label: 'Other' }] : plain })}
          />
          {other && (
            <TextField
              label="“Other” placeholder"
              value={question.otherOptionPlaceholder}
              onChange={(otherOptionPlaceholder) => set({ otherOptionPlaceholder })}
            />
          )}
          <SelectField
            label="Shuffle"
            value={question.shuffleOption ?? 'none'}
            options={SHUFFLE_OPTIONS.map(
              (option) =>
                [
                  option,
                  { none: 'Keep the order', all: 'Shuffle all', exceptLast: 'Shuffle all but the last' }[option],
                ] as const,
            )}
            onChange={(shuffleOption) => set({ shuffleOption })}
          />
        </>
      );
    }
    case 'nps':
      return (
        <>
          <TextField label="Lower label" value={question.lowerLabel} onChange={(lowerLabel) => set({ lowerLabel })} />
          <TextField label="Upper label" value={question.upperLabel} onChange={(upperLabel) => set({ upperLabel })} />
        </>
      );
    case 'rating':
      return (
        <>
          <SelectField
            label="Scale"
            value={question.scale}
            options={same(RATING_SCALES)}
            error={at('scale')}
            onChange={(scale) => set({ scale })}
          />
          <SelectField
            label="Range"
            value={question.range}
            options={same(RATING_RANGES)}
            error={at('range')}
            onChange={(range) => set({ range })}
          />
          <TextField label="Lower label" value={question.lowerLabel} onChange={(lowerLabel) => set({ lowerLabel })} />
          <TextField label="Upper label" value={question.upperLabel} onChange={(upperLabel) => set({ upperLabel })} />
        </>
      );
    case 'cta':
      return (
        <>
          <TextField label="Text (HTML)" multiline value={question.html} onChange={(html) => set({ html })} />
          <TextField
            label="Button label"
            value={question.buttonLabel}
            onChange={(buttonLabel) => set({ buttonLabel })}
          />
          <Check
            label="Button opens an external URL"
            checked={question.buttonExternal}
            onChange={(buttonExternal) => set({ buttonExternal })}
          />
          {question.buttonExternal && (
            <TextField
              label="Button URL"
              value={question.buttonUrl}
              error={at('buttonUrl')}
              onChange={(buttonUrl) => set({ buttonUrl })}
            />
          )}
          <TextField
            label="Skip button label"
            value={question.dismissButtonLabel}
            onChange={(dismissButtonLabel) => set({ dismissButtonLabel })}
          />
        </>
      );
    case 'consent':
      return (
        <>
          <TextField label="Text (HTML)" multiline value={question.html} onChange={(html) => set({ html })} />
          <TextField
            label="Checkbox label"
            value={question.label}
            error={at('label')}
            onChange={(label) => set({ label })}
          />
        </>
      );
    case 'pictureSelection':
      return (
        <>
          <TextField
            label="Picture URLs (one per line)"
            multiline
            value={question.choices.map((choice) => choice.imageUrl).join('\n')}
            error={at('choices')}
            onChange={(text) =>
              set({
                choices: text
                  .split('\n')
                  .map((url) => url.trim())
                  .filter(Boolean)
                  .map((imageUrl, i) => ({ id: question.choices[i]?.id ?? newId(), imageUrl })),
              })
            }
          />
          <Check
            label="Allow several pictures"
            checked={question.allowMulti}
            onChange={(allowMulti) => set({ allowMulti })}
          />
        </>
      );
    case 'date':
      return (
        <>
          <SelectField
            label="Date format"
            value={question.format}
            options={same(DATE_FORMATS)}
            onChange={(format) => set({ format })}
          />
          <TextField label="Text (HTML)" multiline value={question.html} onChange={(html) => set({ html })} />
        </>
      );
    case 'fileUpload':
      return (
        <>
          <Check
            label="Allow several files"
            checked={question.allowMultipleFiles}
            onChange={(allowMultipleFiles) => set({ allowMultipleFiles })}
          />
          <NumberField
            label="Maximum size (MB)"
            value={question.maxSizeInMB}
            min={0}
            error={at('maxSizeInMB')}
            onChange={(maxSizeInMB) => set({ maxSizeInMB: maxSizeInMB ?? undefined })}
          />
          <fieldset className="extensions">
            <legend>Allowed file types (none: any)</legend>
            {FILE_EXTENSIONS.map((extension) => (
              <Check
                key={extension}
                label={extension}
                checked={question.allowedFileExtensions?.includes(extension) ?? false}
                onChange={(on) => {
                  const list = (question.allowedFileExtensions ?? []).filter((e) => e !== extension);
                  const next = on ? [...list, extension] : list;
                  set({ allowedFileExtensions: next.length ? next : undefined });
                }}
              />
            ))}
          </fieldset>
        </>
      );
    case 'cal':
      return (
        <TextField
          label="Cal.com user name"
          value={question.calUserName}
          error={at('calUserName')}
          onChange={(calUserName) => set({ calUserName })}
        />
      );
  }
}

const CONDITION_LABELS: Record<string, string> = {
  submitted: 'is submitted',
  skipped: 'is skipped',
  equals: 'equals',
  notEquals: 'does not equal',
  lessThan: 'is less than',
  lessEqual: 'is less than or equal to',
  greaterThan: 'is greater than',
  greaterEqual: 'is greater than or equal to',
  includesAll: 'includes all of',
  includesOne: 'includes one of',
  clicked: 'is clicked',
  accepted: 'is accepted',
  uploaded: 'has a file uploaded',
  notUploaded: 'has no file uploaded',
  booked: 'is booked',
};

function LogicEditor({
  question,
  index,
  draft,
  issues,
  onChange,
}: {
  question: TSurveyQuestion;
  index: number;
  draft: SurveyDraft;
  issues: Issues;
  onChange(logic: TSurveyLogic[] | undefined): void;
}) {
  const logic = question.logic ?? [];
  const conditions = LOGIC_CONDITIONS[question.type];
  const later = draft.questions.slice(index + 1);
  const destinations = [
    ...later.map((q) => [q.id, `${draft.questions.indexOf(q) + 1}. ${q.headline || q.id}`] as const),
    ['end', 'End of the survey'] as const,
  ];
  const labels =
    question.type === 'multipleChoiceSingle' || question.type === 'multipleChoiceMulti'
      ? question.choices.map((choice) => choice.label)
      : question.type === 'pictureSelection'
        ? question.choices.map((choice) => choice.id)
        : [];
  const update = (i: number, rule: TSurveyLogic) => onChange(logic.map((r, j) => (j === i ? rule : r)));
  const at = (i: number, field: string) => issues[`questions.${index}.logic.${i}.${field}`];
  const numbers =
    question.type === 'nps'
      ? [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
      : Array.from({ length: question.type === 'rating' ? question.range : 0 }, (_, i) => i + 1);
  return (
    <fieldset className="logic">
      <legend>Logic</legend>
      {logic.map((rule, i) => {
        const kind = logicValueKind(question.type, rule.condition);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; their position is what the survey keeps
          <div key={i} className="logic-rule">
            <SelectField
              label={`Rule ${i + 1}: if the answer`}
              value={rule.condition}
              options={conditions.map((condition) => [condition, CONDITION_LABELS[condition]] as const)}
              error={at(i, 'condition')}
              onChange={(condition) => {
                const { value: _value, ...rest } = rule;
                update(i, { ...rest, condition });
              }}
            />
            {kind === 'number' && (
              <SelectField
                label="Value"
                value={typeof rule.value === 'number' ? rule.value : undefined}
                options={same(numbers)}
                error={at(i, 'value')}
                onChange={(value) => update(i, { ...rule, value })}
              />
            )}
            {kind === 'choice' && (
              <SelectField
                label="Value"
                value={typeof rule.value === 'string' ? rule.value : undefined}
                options={same(labels)}
                error={at(i, 'value')}
                onChange={(value) => update(i, { ...rule, value })}
              />
            )}
            {kind === 'choices' && (
              <fieldset className="logic-values">
                <legend>Values</legend>
                {labels.map((label) => (
                  <Check
                    key={label}
                    label={label}
                    checked={Array.isArray(rule.value) && rule.value.includes(label)}
                    onChange={(on) => {
                      const current = Array.isArray(rule.value) ? rule.value.filter((v) => v !== label) : [];
                      update(i, { ...rule, value: on ? [...current, label] : current });
                    }}
                  />
                ))}
                {at(i, 'value') && <span className="field-error">{at(i, 'value')}</span>}
              </fieldset>
            )}
            <SelectField
              label="Jump to"
              value={rule.destination}
              options={destinations}
              error={at(i, 'destination')}
              onChange={(destination) => update(i, { ...rule, destination })}
            />
            <button
              type="button"
              className="link-button"
              onClick={() => onChange(logic.length === 1 ? undefined : logic.filter((_, j) => j !== i))}
            >
              Remove rule {i + 1}
            </button>
          </div>
        );
      })}
      <button type="button" className="link-button" onClick={() => onChange([...logic, newLogicRule(conditions[0])])}>
        Add logic rule
      </button>
    </fieldset>
  );
}

function Triggers({ draft, environment, issues, change }: PartProps & { environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const classes = useQuery(actionClassesQuery(namespaceKey, environment.id));
  const [creating, setCreating] = useState(false);
  const toggle = (name: string, on: boolean) =>
    change({ triggers: on ? [...draft.triggers, name] : draft.triggers.filter((trigger) => trigger !== name) });
  const known = new Set(classes.data?.map((actionClass) => actionClass.name));
  return (
    <>
      <p className="muted">
        The survey shows when a visitor does one of these (and the audience and display rules allow it).
      </p>
      {classes.data?.map((actionClass) => (
        <Check
          key={actionClass.id}
          label={actionClass.name}
          checked={draft.triggers.includes(actionClass.name)}
          onChange={(on) => toggle(actionClass.name, on)}
        />
      ))}
      {draft.triggers
        .filter((trigger) => classes.data && !known.has(trigger))
        .map((trigger) => (
          <Check
            key={trigger}
            label={`${trigger} (code action, created on save)`}
            checked
            onChange={() => toggle(trigger, false)}
          />
        ))}
      {issues.triggers && <p className="field-error">{issues.triggers}</p>}
      <button type="button" className="link-button" onClick={() => setCreating(true)}>
        New action
      </button>
      <Dialog open={creating} onClose={() => setCreating(false)} title="New Action" side>
        <ActionClassEditor
          environment={environment}
          onDone={(name) => {
            setCreating(false);
            if (name && !draft.triggers.includes(name)) change({ triggers: [...draft.triggers, name] });
          }}
        />
      </Dialog>
    </>
  );
}

const OPERATOR_LABELS: Record<string, string> = {
  equals: 'equals',
  notEquals: 'does not equal',
  lessThan: 'is less than',
  lessEqual: 'is at most',
  greaterThan: 'is greater than',
  greaterEqual: 'is at least',
  isSet: 'is set',
  isNotSet: 'is not set',
  contains: 'contains',
  doesNotContain: 'does not contain',
  startsWith: 'starts with',
  endsWith: 'ends with',
};

function Audience({ draft, issues, change }: PartProps) {
  const { rows, others } = attributeFilters(draft);
  const set = (index: number, row: Parameters<typeof withAttributeFilter>[2]) =>
    change(withAttributeFilter(draft, index, row));
  const problem = Object.entries(issues).find(([path]) => path.startsWith('segment'))?.[1];
  return (
    <>
      <p className="muted">
        Everyone, unless filters below say otherwise. Filters apply to identified visitors (
        <code>formbricks.setUserId</code>) by their attributes.
      </p>
      {rows.map((row, i) => (
        <div key={row.index} className="filter-row">
          {i > 0 && (
            <SelectField
              label="Join"
              value={row.connector}
              options={[
                ['and', 'and'],
                ['or', 'or'],
              ]}
              onChange={(connector) => set(row.index, { ...row, connector })}
            />
          )}
          <TextField
            label={`Attribute ${i + 1}`}
            value={row.attribute}
            onChange={(attribute) => set(row.index, { ...row, attribute })}
          />
          <SelectField
            label="Operator"
            value={row.operator}
            options={ATTRIBUTE_OPERATORS.map((operator) => [operator, OPERATOR_LABELS[operator]] as const)}
            onChange={(operator) => set(row.index, { ...row, operator })}
          />
          {row.operator !== 'isSet' && row.operator !== 'isNotSet' && (
            <TextField label="Value" value={row.value} onChange={(value) => set(row.index, { ...row, value })} />
          )}
          <button type="button" className="link-button" onClick={() => set(row.index, undefined)}>
            Remove filter {i + 1}
          </button>
        </div>
      ))}
      {others > 0 && <p className="muted">{others} other filter(s) (groups, person or device) are kept as they are.</p>}
      {problem && <p className="field-error">{problem}</p>}
      <button
        type="button"
        className="link-button"
        onClick={() => set(-1, { connector: 'and', attribute: '', operator: 'equals', value: '' })}
      >
        Add attribute filter
      </button>
    </>
  );
}

function Display({ draft, issues, change }: PartProps) {
  const closeDate = draft.closeOnDate ? draft.closeOnDate.slice(0, 10) : '';
  return (
    <div className="form-grid">
      <SelectField
        label="Show"
        value={draft.displayOption}
        options={DISPLAY_OPTIONS.map(
          (option) =>
            [
              option,
              {
                displayOnce: 'Once per person',
                displayMultiple: 'Until they answer',
                respondMultiple: 'Every time, even after an answer',
              }[option],
            ] as const,
        )}
        onChange={(displayOption) => change({ displayOption })}
      />
      <NumberField
        label="Recontact days"
        hint="Empty: the product's setting"
        min={0}
        value={draft.recontactDays}
        error={issues.recontactDays}
        onChange={(recontactDays) => change({ recontactDays })}
      />
      <NumberField
        label="Delay (seconds)"
        min={0}
        value={draft.delay}
        error={issues.delay}
        onChange={(delay) => change({ delay: delay ?? 0 })}
      />
      <NumberField
        label="Auto-close after (seconds)"
        hint="Empty: off"
        min={1}
        value={draft.autoClose}
        error={issues.autoClose}
        onChange={(autoClose) => change({ autoClose })}
      />
      <NumberField
        label="Complete after N responses"
        hint="Empty: off"
        min={1}
        value={draft.autoComplete}
        error={issues.autoComplete}
        onChange={(autoComplete) => change({ autoComplete })}
      />
      <TextField
        label="Close on date (YYYY-MM-DD)"
        value={closeDate}
        error={issues.closeOnDate}
        onChange={(date) =>
          change({
            closeOnDate: date === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00.000Z` : date,
          })
        }
      />
      <NumberField
        label="Show to this percentage of visitors"
        hint="Empty: everyone"
        min={1}
        value={draft.displayPercentage}
        error={issues.displayPercentage}
        onChange={(displayPercentage) => change({ displayPercentage })}
      />
    </div>
  );
}

function Look({ draft, environment, issues, change }: PartProps & { environment: SurveyEnvironment }) {
  const overrides = draft.productOverwrites ?? {};
  const set = (patch: Record<string, unknown>) => {
    const next = Object.fromEntries(
      Object.entries({ ...overrides, ...patch }).filter(([, value]) => value !== undefined),
    );
    change({ productOverwrites: Object.keys(next).length ? next : null });
  };
  const at = (field: string) => issues[`productOverwrites.${field}`];
  const { product } = environment;
  const flag = (field: 'clickOutsideClose' | 'darkOverlay', label: string) => (
    <SelectField
      label={label}
      value={overrides[field] === undefined || overrides[field] === null ? 'product' : overrides[field] ? 'on' : 'off'}
      options={[
        ['product', `Product setting (${product[field] ? 'on' : 'off'})`],
        ['on', 'On'],
        ['off', 'Off'],
      ]}
      onChange={(value) => set({ [field]: value === 'product' ? undefined : value === 'on' })}
    />
  );
  return (
    <div className="form-grid">
      <TextField
        label="Brand colour"
        placeholder={product.brandColor}
        value={overrides.brandColor ?? ''}
        error={at('brandColor')}
        onChange={(brandColor) => set({ brandColor: brandColor || undefined })}
      />
      <TextField
        label="Highlight border colour"
        placeholder={product.highlightBorderColor ?? 'none'}
        value={overrides.highlightBorderColor ?? ''}
        error={at('highlightBorderColor')}
        onChange={(highlightBorderColor) => set({ highlightBorderColor: highlightBorderColor || undefined })}
      />
      <SelectField
        label="Placement"
        value={overrides.placement ?? 'product'}
        options={[
          ['product', `Product setting (${PLACEMENT_LABELS[product.placement]})`] as const,
          ...PLACEMENTS.map((p) => [p, PLACEMENT_LABELS[p]] as const),
        ]}
        onChange={(placement) => set({ placement: placement === 'product' ? undefined : placement })}
      />
      {flag('clickOutsideClose', 'Close on click outside')}
      {flag('darkOverlay', 'Dark overlay')}
    </div>
  );
}
