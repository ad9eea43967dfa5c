import { Field, TextField } from '../../components/Field';
import { useForm } from '../../lib/form';
import { type FilterValues, filterSchema, NO_FILTER } from './schemas';

const ENTITY_TYPES: [FilterValues['entityType'], string][] = [
  ['', 'Any'],
  ['flag', 'Flag'],
  ['segment', 'Segment'],
  ['namespace', 'Namespace'],
];

type TextName = Exclude<keyof FilterValues, 'entityType'>;

/** Narrows the namespace's history by entity, actor and a range of days; Apply sends it, Clear resets it. */
export function HistoryFilters({ onApply }: { onApply(values: FilterValues): void }) {
  const form = useForm<FilterValues>(NO_FILTER, filterSchema);
  const text = (name: TextName, label: string, type = 'text') => (
    <TextField label={label} error={form.error(name)} type={type} {...form.field(name)} />
  );
  return (
    <form
      className="form-grid history-filters"
      aria-label="Filter changes"
      onSubmit={(event) => {
        event.preventDefault();
        if (form.valid) onApply(form.values);
      }}
    >
      <Field label="Entity">
        {(props) => (
          <select {...props} {...form.choice('entityType')}>
            {ENTITY_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {text('entityKey', 'Key')}
      {text('actor', 'Actor')}
      {text('from', 'From', 'date')}
      {text('to', 'To', 'date')}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={!form.valid}>
          Apply
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            form.reset(NO_FILTER);
            onApply(NO_FILTER);
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
