import { useState, type KeyboardEvent } from 'react';
import { MAX_JSON_ARRAY_ITEMS } from '../../domain/flipt/keys';
import { ValueList } from './ValueList';

interface MultiValueInputProps {
  id: string;
  /** The list as a JSON array string. */
  value: string;
  numbers: boolean;
  onChange(value: string): void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

function parse(value: string): (string | number)[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/**
 * Chips for a list value: Enter adds the typed entry; empty and duplicate entries are ignored,
 * entries become numbers for NUMBER, and at most 100 are kept. Stored as a JSON array string.
 */
export function MultiValueInput({ id, value, numbers, onChange, ...aria }: MultiValueInputProps) {
  const [draft, setDraft] = useState('');
  const items = parse(value);
  const commit = (next: (string | number)[]) => onChange(next.length ? JSON.stringify(next) : '');

  const add = () => {
    const text = draft.trim();
    setDraft('');
    if (!text) return;
    const entry = numbers ? Number(text) : text;
    if (numbers && Number.isNaN(entry)) return;
    if (items.includes(entry) || items.length >= MAX_JSON_ARRAY_ITEMS) return;
    commit([...items, entry]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  return (
    <div className="multi-value">
      <ValueList
        items={items}
        render={(item, index) => (
          <span key={`${item}-${index}`} className="chip">
            {String(item)}
            <button
              type="button"
              className="chip-remove"
              aria-label={`Remove ${item}`}
              onClick={() => commit(items.filter((_, position) => position !== index))}
            >
              ×
            </button>
          </span>
        )}
      />
      <input
        id={id}
        {...aria}
        type={numbers ? 'number' : 'text'}
        value={draft}
        placeholder="Type a value and press Enter"
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
      />
    </div>
  );
}
