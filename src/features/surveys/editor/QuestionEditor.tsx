import { useState } from 'react';
import { QUESTION_TYPES } from '../../../../domain/surveys/schema';
import type { TSurveyQuestion, TSurveyQuestionType } from '../../../../domain/surveys/types';
import type { SurveyDraft } from '../api';
import { type Issues, QUESTION_TYPE_LABELS, questionOfType } from './editor-model';
import { Check, OptionalTextField, SelectField, TextField } from './fields';
import { LogicEditor } from './LogicEditor';
import { TypeFields } from './question-fields';

export function AddQuestion({ onAdd }: { onAdd(type: TSurveyQuestionType): void }) {
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

export function QuestionEditor({
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
        <OptionalTextField
          label="Description"
          value={question.subheader}
          onChange={(subheader) => set({ subheader })}
        />
        <Check label="Required" checked={question.required} onChange={(required) => set({ required })} />
        {question.type !== 'cta' && question.type !== 'consent' && (
          <OptionalTextField
            label="Next button label"
            value={question.buttonLabel}
            onChange={(buttonLabel) => set({ buttonLabel })}
          />
        )}
        <OptionalTextField
          label="Back button label"
          value={question.backButtonLabel}
          onChange={(backButtonLabel) => set({ backButtonLabel })}
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
