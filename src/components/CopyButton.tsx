import { useEffect, useState } from 'react';
import { Icon } from './Icon';

export const COPIED_MS = 2000;

/** Copies a text to the clipboard and confirms it for 2 s. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      onClick={() => navigator.clipboard?.writeText(text).then(() => setCopied(true))}
    >
      {copied ? (
        <span role="status" className="copied">
          <Icon name="check" size={16} />
          Copied!
        </span>
      ) : (
        <Icon name="copy" size={16} />
      )}
    </button>
  );
}
