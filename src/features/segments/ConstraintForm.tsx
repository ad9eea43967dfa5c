import { useState, type FormEvent } from 'react';
import type { ComparisonType, Constraint } from '../../../domain/flipt/types';
import { Field, TextField } from '../../components/Field';
import { MultiValueInput } from '../../components/MultiValueInput';
import { SubmitButton } from '../../components/SubmitButton';
import { useForm, useSubmitting } from '../../lib/form';
import { fromDatetimeValue, toDatetimeValue } from '../../lib/time';
import { usePreferencesStore } from '../../stores/preferences';
import {
  CONSTRAINT_TYPES,
  ENTITY_ID_PROPERTY,
  LIST_OPERATORS,
  NO_VALUE_OPERATORS,
  OPERATORS,
  operatorLabel,
} from './operators';
import { constraintValues, type ConstraintValues } from './api';
import { constraintSchema } from './schemas';

const NEW_CONSTRAINT: ConstraintValues = {
  property: '',
  type: 'STRING_COMPARISON_TYPE',
  operator: 'eq',
  value: '',
  description: '',
};

function DatetimeInput({ value, onChange }: { value: string; onChange(value: string): void }) {
  const timezone = usePreferencesStore((state) => state.timezone);
  const [parts, setParts] = useState(() => fromDatetimeValue(value, timezone));
  const change = (next: { date: string; time: string }) => {
    setParts(next);
    onChange(next.date ? toDatetimeValue(next.date, next.time, timezone) : '');
  };
  return (
    <div className="datetime">
      <label>
        Date
        <input type="date" value={parts.date} onChange={(event) => change({ ...parts, date: event.target.value })} />
      </label>
      <label>
        Time ({timezone === 'utc' ? 'UTC' : 'local'})
        <input type="time" value={parts.time} onChange={(event) => change({ ...parts, time: event.target.value })} />
      </label>
    </div>
  );
}

/** New Constraint / Edit Constraint. */
export function ConstraintForm({
  constraint,
  onSave,
}: {
  constraint?: Constraint;
  onSave(values: ConstraintValues): Promise<unknown>;
}) {
  const form = useForm(constraint ? constraintValues(constraint) : NEW_CONSTRAINT, constraintSchema);
  const [submitting, track] = useSubmitting();
  const { values } = form;
  const entity = values.type === 'ENTITY_ID_COMPARISON_TYPE';
  const takesValue = !NO_VALUE_OPERATORS.has(values.operator);
  const list = LIST_OPERATORS.has(values.operator);

  const setType = (type: ComparisonType) => {
    form.update({
      type,
      // BOOLEAN starts at 'true', the other types at 'eq'; ENTITY_ID fixes the property.
      operator: type === 'BOOLEAN_COMPARISON_TYPE' ? 'true' : 'eq',
      value: '',
      property: type === 'ENTITY_ID_COMPARISON_TYPE' ? ENTITY_ID_PROPERTY : entity ? '' : values.property,
    });
  };

  const setOperator = (operator: string) => {
    const wasList = LIST_OPERATORS.has(values.operator);
    form.update({
      operator,
      value: wasList !== LIST_OPERATORS.has(operator) || NO_VALUE_OPERATORS.has(operator) ? '' : values.value,
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    track(() => onSave({ ...values, value: takesValue ? values.value : '' }));
  };

  return (
    <form className="form" onSubmit={submit}>
      <TextField label="Property" error={form.error('property')} disabled={entity} {...form.field('property')} />
      <Field label="Type">
        {(props) => (
          <select
            {...props}
            name="type"
            value={values.type}
            onChange={(event) => setType(event.target.value as ComparisonType)}
          >
            {CONSTRAINT_TYPES.map(({ type, label }) => (
              <option key={type} value={type}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Operator">
        {(props) => (
          <select
            {...props}
            name="operator"
            value={values.operator}
            onChange={(event) => setOperator(event.target.value)}
          >
            {(OPERATORS[values.type] ?? []).map((operator) => (
              <option key={operator} value={operator}>
                {operatorLabel(values.type, operator)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {takesValue && (
        <Field label="Value" error={form.error('value')}>
          {(props) =>
            list ? (
              <MultiValueInput
                {...props}
                numbers={values.type === 'NUMBER_COMPARISON_TYPE'}
                {...form.control('value')}
              />
            ) : values.type === 'DATETIME_COMPARISON_TYPE' ? (
              <DatetimeInput {...form.control('value')} />
            ) : (
              <input
                {...props}
                type={values.type === 'NUMBER_COMPARISON_TYPE' ? 'number' : 'text'}
                {...form.field('value')}
              />
            )
          }
        </Field>
      )}
      <TextField label="Description" {...form.field('description')} />
      <div className="form-actions">
        <SubmitButton
          label={constraint ? 'Update' : 'Create'}
          submitting={submitting}
          ready={form.dirty && form.valid}
        />
      </div>
    </form>
  );
}
