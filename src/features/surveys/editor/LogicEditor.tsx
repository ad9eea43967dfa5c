import { LOGIC_CONDITIONS, logicValueKind } from '../../../../domain/surveys/schema';
import type { TSurveyLogic, TSurveyQuestion } from '../../../../domain/surveys/types';
import type { SurveyDraft } from '../api';
import { type Issues, newLogicRule } from './editor-model';
import { Check, SelectField, same } from './fields';

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

export function LogicEditor({
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
