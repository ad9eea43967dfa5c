import { READ_ONLY_TITLE } from '../api/meta';
import { ReasonButton } from './Tooltip';

interface SubmitButtonProps {
  label: string;
  submitting: boolean;
  /** Changed and valid. */
  ready: boolean;
  readOnly?: boolean;
}

/** Enabled only when the form is changed, valid, not submitting and not read-only. */
export function SubmitButton({ label, submitting, ready, readOnly }: SubmitButtonProps) {
  return (
    <ReasonButton
      type="submit"
      className="button button-primary"
      disabled={!ready || submitting}
      reason={readOnly ? READ_ONLY_TITLE : undefined}
    >
      {submitting && <span className="spinner" aria-hidden="true" />}
      {label}
    </ReasonButton>
  );
}
