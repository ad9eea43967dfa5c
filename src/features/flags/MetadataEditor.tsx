import { Icon } from '../../components/Icon';
import { stringAsKey } from '../../lib/format';
import { METADATA_TYPES, type MetadataEntry, type MetadataProblem, retyped } from './metadata';

interface MetadataEditorProps {
  entries: MetadataEntry[];
  onChange(entries: MetadataEntry[]): void;
  /** Each entry's problems, at its index; shown once the metadata was changed. */
  problems: (MetadataProblem | undefined)[];
  disabled: boolean;
}

/**
 * The flag form's Metadata (Flipt 1.54 and later): key and value pairs, each value a string, number,
 * boolean or JSON (an object or a list), added with Add Metadata and removed one by one.
 */
export function MetadataEditor({ entries, onChange, problems, disabled }: MetadataEditorProps) {
  const change = (index: number, entry: MetadataEntry) =>
    onChange(entries.map((current, i) => (i === index ? entry : current)));
  return (
    <fieldset className="field metadata">
      <legend>
        Metadata <span className="muted">Optional</span>
      </legend>
      {entries.length === 0 && <p className="muted">No metadata.</p>}
      {entries.map((entry, index) => {
        const n = index + 1;
        const problem = problems[index];
        const errorId = `metadata-${n}-error`;
        return (
          // Entries have no identity but their place: a key may be edited or shared while typed.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div className="metadata-entry" key={index}>
            <input
              aria-label={`Metadata key ${n}`}
              placeholder="Key"
              value={entry.key}
              disabled={disabled}
              aria-invalid={problem?.key ? true : undefined}
              aria-describedby={problem ? errorId : undefined}
              onChange={(event) => change(index, { ...entry, key: stringAsKey(event.target.value) })}
            />
            <select
              aria-label={`Metadata type ${n}`}
              value={entry.type}
              disabled={disabled}
              onChange={(event) => change(index, retyped(entry, event.target.value as MetadataEntry['type']))}
            >
              {METADATA_TYPES.map(({ type, label }) => (
                <option key={type} value={type}>
                  {label}
                </option>
              ))}
            </select>
            {entry.type === 'boolean' ? (
              <select
                aria-label={`Metadata value ${n}`}
                value={entry.value}
                disabled={disabled}
                onChange={(event) => change(index, { ...entry, value: event.target.value })}
              >
                <option value="true">True</option>
                <option value="false">False</option>
              </select>
            ) : entry.type === 'json' ? (
              <textarea
                aria-label={`Metadata value ${n}`}
                rows={2}
                value={entry.value}
                disabled={disabled}
                aria-invalid={problem?.value ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                onChange={(event) => change(index, { ...entry, value: event.target.value })}
              />
            ) : (
              <input
                aria-label={`Metadata value ${n}`}
                placeholder="Value"
                inputMode={entry.type === 'number' ? 'decimal' : undefined}
                value={entry.value}
                disabled={disabled}
                aria-invalid={problem?.value ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                onChange={(event) => change(index, { ...entry, value: event.target.value })}
              />
            )}
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove metadata entry ${n}`}
              disabled={disabled}
              onClick={() => onChange(entries.filter((_, i) => i !== index))}
            >
              <Icon name="cross" />
            </button>
            {problem && (
              <span id={errorId} className="field-error metadata-error">
                {[problem.key, problem.value].filter(Boolean).join('. ')}
              </span>
            )}
          </div>
        );
      })}
      <button
        type="button"
        className="button"
        disabled={disabled}
        onClick={() => onChange([...entries, { key: '', type: 'string', value: '' }])}
      >
        <Icon name="plus" size={16} /> Add Metadata
      </button>
    </fieldset>
  );
}
