import { ReasonButton } from './Tooltip';

interface SubmitButtonProps {
  label: string;
  submitting: boolean;
  /** Changed and valid. */
  ready: boolean;
  /** Why the form cannot be saved at all, e.g. `useWritable().reason`. */
  reason?: string;
}

/** Enabled only when the form is changed, valid, not submitting and has no reason to refuse. */
export function SubmitButton({ label, submitting, ready, reason }: SubmitButtonProps) {
  return (
    <ReasonButton type="submit" className="button button-primary" disabled={!ready || submitting} reason={reason}>
      {submitting && <span className="spinner" aria-hidden="true" />}
      {label}
    </ReasonButton>
  );
}
