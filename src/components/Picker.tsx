import {
  Combobox,
  ComboboxItem,
  ComboboxList,
  ComboboxProvider,
  Select,
  SelectItem,
  SelectItemCheck,
  SelectLabel,
  SelectPopover,
  SelectProvider,
} from '@ariakit/react';
import { startTransition, useMemo, useState } from 'react';

/** One choice of a picker: what is stored (`value`), shown by name with its key beside it. */
export interface PickerOption {
  value: string;
  name: string;
  key: string;
}

/** The options whose name or key contains the search text, ignoring case. */
export function filterOptions(options: PickerOption[], search: string): PickerOption[] {
  const text = search.trim().toLowerCase();
  if (!text) return options;
  return options.filter(
    (option) => option.name.toLowerCase().includes(text) || option.key.toLowerCase().includes(text),
  );
}

interface PickerProps<V extends string | string[]> {
  label: string;
  options: PickerOption[];
  /** One value, or a list when several may be chosen. */
  value: V;
  onChange(value: NoInfer<V>): void;
  /** Shown when nothing is chosen. */
  placeholder: string;
  hint?: string;
  disabled?: boolean;
  /** Open when first shown (a picker loaded lazily by the click that opens it). */
  defaultOpen?: boolean;
}

/**
 * A searchable picker: a button showing the choice opens a list filtered by name or key as one types.
 * Arrows move, Enter chooses (and, with a list value, toggles and stays open), Escape closes.
 */
export function Picker<V extends string | string[]>({
  label,
  options,
  value,
  onChange,
  placeholder,
  hint,
  disabled,
  defaultOpen,
}: PickerProps<V>) {
  const [search, setSearch] = useState('');
  const matches = useMemo(() => filterOptions(options, search), [options, search]);
  const chosen = options.filter((option) =>
    Array.isArray(value) ? value.includes(option.value) : option.value === value,
  );
  return (
    <div className="field">
      <ComboboxProvider
        resetValueOnHide
        defaultOpen={defaultOpen}
        setValue={(text) => startTransition(() => setSearch(text))}
      >
        <SelectProvider value={value} setValue={onChange}>
          <SelectLabel className="picker-label">{label}</SelectLabel>
          <Select className="picker" disabled={disabled}>
            <span className={chosen.length ? 'picker-value' : 'picker-value muted'}>
              {chosen.length ? chosen.map((option) => option.name).join(', ') : placeholder}
            </span>
          </Select>
          <SelectPopover gutter={4} sameWidth className="menu picker-popover">
            <Combobox
              autoSelect
              className="picker-search"
              placeholder="Search by name or key"
              aria-label={`Search ${label}`}
            />
            <ComboboxList className="picker-list" aria-multiselectable={Array.isArray(value) || undefined}>
              {matches.map((option) => (
                <SelectItem
                  key={option.value}
                  value={option.value}
                  className="menu-item picker-item"
                  render={<ComboboxItem />}
                >
                  {Array.isArray(value) && <SelectItemCheck />}
                  <span>{option.name}</span>{' '}
                  {option.key && option.key !== option.name && <code className="muted">{option.key}</code>}
                </SelectItem>
              ))}
            </ComboboxList>
            {matches.length === 0 && <p className="muted picker-empty">No results found</p>}
          </SelectPopover>
        </SelectProvider>
      </ComboboxProvider>
      {hint && <span className="muted">{hint}</span>}
    </div>
  );
}
