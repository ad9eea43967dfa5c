import { type InputHTMLAttributes, useId, type ReactNode } from 'react';

interface FieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  children(props: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }): ReactNode;
}

/** A labelled form control with its validation message. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {hint && <span className="muted">{hint}</span>}
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * A labelled text input, bound in one spread by `useForm`'s binder:
 * `<TextField label="Description" {...form.field('description')} />`.
 */
export function TextField({
  label,
  error,
  hint,
  ...input
}: { label: string; error?: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => <input {...props} {...input} />}
    </Field>
  );
}
