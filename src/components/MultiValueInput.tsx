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
 * The list with the typed entry added: empty and duplicate entries (and non-numbers for NUMBER)
 * are ignored, entries become numbers for NUMBER, and the list holds at most 100 items.
 * Returns the same array when nothing was added.
 */
export function addEntry(items: (string | number)[], draft: string, numbers: boolean): (string | number)[] {
  const text = draft.trim();
  if (!text) return items;
  const entry = numbers ? Number(text) : text;
  if (numbers && Number.isNaN(entry)) return items;
  if (items.includes(entry) || items.length >= MAX_JSON_ARRAY_ITEMS) return items;
  return [...items, entry];
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
    const next = addEntry(items, draft, numbers);
    setDraft('');
    if (next !== items) commit(next);
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
