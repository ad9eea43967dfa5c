// The editor's inputs: a label, the control and the field's problem, one line per field.
import { type ReactNode, useMemo } from 'react';
import type { SurveyDraft } from '../api';
import type { Issues } from './editor-model';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="panel editor-section">
      <legend className="panel-title">{title}</legend>
      {children}
    </fieldset>
  );
}

let fieldCount = 0;
const useFieldId = () => useMemo(() => `editor-field-${++fieldCount}`, []);

interface TextFieldProps {
  label: string;
  value: string | undefined;
  error?: string;
  onChange(value: string): void;
  onFocus?(): void;
  multiline?: boolean;
  placeholder?: string;
}

export function TextField({ label, value, error, onChange, onFocus, multiline, placeholder }: TextFieldProps) {
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

/** A text field for a setting that may be unset: emptied, it unsets it (undefined) rather than storing ''. */
export function OptionalTextField({
  onChange,
  ...props
}: Omit<TextFieldProps, 'onChange'> & { onChange(value: string | undefined): void }) {
  return <TextField {...props} onChange={(value) => onChange(value || undefined)} />;
}

/** A number input whose empty value is null (the field's "off"). */
export function NumberField({
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

export function SelectField<T extends string | number>({
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

export function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(value: boolean): void;
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

export const same = <T extends string | number>(values: readonly T[]) =>
  values.map((value) => [value, String(value)] as const);

export interface PartProps {
  draft: SurveyDraft;
  issues: Issues;
  change(patch: Partial<SurveyDraft>): void;
}
