// The fields of each question type, one component per type; `TypeFields` picks the question's.
import type { ComponentType } from 'react';
import {
  DATE_FORMATS,
  FILE_EXTENSIONS,
  OPEN_TEXT_INPUT_TYPES,
  RATING_RANGES,
  RATING_SCALES,
  SHUFFLE_OPTIONS,
} from '../../../../domain/surveys/schema';
import type { TSurveyQuestion, TSurveyQuestionType } from '../../../../domain/surveys/types';
import { newId } from '../templates';
import { Check, NumberField, SelectField, same, TextField } from './fields';

type QuestionOf<T extends TSurveyQuestionType> = Extract<TSurveyQuestion, { type: T }>;

interface FieldsProps<Q extends TSurveyQuestion> {
  question: Q;
  /** The problem of a field of the question, by its path inside the question. */
  at(field: string): string | undefined;
  set(patch: Record<string, unknown>): void;
}

function OpenTextFields({ question, set }: FieldsProps<QuestionOf<'openText'>>) {
  return (
    <>
      <SelectField
        label="Input type"
        value={question.inputType ?? 'text'}
        options={same(OPEN_TEXT_INPUT_TYPES)}
        onChange={(inputType) => set({ inputType })}
      />
      <TextField label="Placeholder" value={question.placeholder} onChange={(placeholder) => set({ placeholder })} />
      <Check
        label="Long answer"
        checked={question.longAnswer ?? false}
        onChange={(longAnswer) => set({ longAnswer })}
      />
    </>
  );
}

function ChoiceFields({ question, at, set }: FieldsProps<QuestionOf<'multipleChoiceSingle' | 'multipleChoiceMulti'>>) {
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

function NpsFields({ question, set }: FieldsProps<QuestionOf<'nps'>>) {
  return (
    <>
      <TextField label="Lower label" value={question.lowerLabel} onChange={(lowerLabel) => set({ lowerLabel })} />
      <TextField label="Upper label" value={question.upperLabel} onChange={(upperLabel) => set({ upperLabel })} />
    </>
  );
}

function RatingFields({ question, at, set }: FieldsProps<QuestionOf<'rating'>>) {
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
}

function CtaFields({ question, at, set }: FieldsProps<QuestionOf<'cta'>>) {
  return (
    <>
      <TextField label="Text (HTML)" multiline value={question.html} onChange={(html) => set({ html })} />
      <TextField label="Button label" value={question.buttonLabel} onChange={(buttonLabel) => set({ buttonLabel })} />
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
}

function ConsentFields({ question, at, set }: FieldsProps<QuestionOf<'consent'>>) {
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
}

function PictureFields({ question, at, set }: FieldsProps<QuestionOf<'pictureSelection'>>) {
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
}

function DateFields({ question, set }: FieldsProps<QuestionOf<'date'>>) {
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
}

function FileUploadFields({ question, at, set }: FieldsProps<QuestionOf<'fileUpload'>>) {
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
}

function CalFields({ question, at, set }: FieldsProps<QuestionOf<'cal'>>) {
  return (
    <TextField
      label="Cal.com user name"
      value={question.calUserName}
      error={at('calUserName')}
      onChange={(calUserName) => set({ calUserName })}
    />
  );
}

// Each component takes the questions of its own type; `never` lets the table hold them all.
const FIELDS_OF_TYPE: Record<TSurveyQuestionType, ComponentType<FieldsProps<never>>> = {
  openText: OpenTextFields,
  multipleChoiceSingle: ChoiceFields,
  multipleChoiceMulti: ChoiceFields,
  nps: NpsFields,
  rating: RatingFields,
  cta: CtaFields,
  consent: ConsentFields,
  pictureSelection: PictureFields,
  date: DateFields,
  fileUpload: FileUploadFields,
  cal: CalFields,
};

/** The fields of the question's own type. */
export function TypeFields({
  question,
  ...props
}: Omit<FieldsProps<never>, 'question'> & { question: TSurveyQuestion }) {
  const Fields = FIELDS_OF_TYPE[question.type] as ComponentType<FieldsProps<TSurveyQuestion>>;
  return <Fields question={question} {...props} />;
}
