import { DISPLAY_OPTIONS } from '../../../../domain/surveys/schema';
import { NumberField, type PartProps, SelectField, TextField } from './fields';

export function Display({ draft, issues, change }: PartProps) {
  const closeDate = draft.closeOnDate ? draft.closeOnDate.slice(0, 10) : '';
  return (
    <div className="form-grid">
      <SelectField
        label="Show"
        value={draft.displayOption}
        options={DISPLAY_OPTIONS.map(
          (option) =>
            [
              option,
              {
                displayOnce: 'Once per person',
                displayMultiple: 'Until they answer',
                respondMultiple: 'Every time, even after an answer',
              }[option],
            ] as const,
        )}
        onChange={(displayOption) => change({ displayOption })}
      />
      <NumberField
        label="Recontact days"
        hint="Empty: the product's setting"
        min={0}
        value={draft.recontactDays}
        error={issues.recontactDays}
        onChange={(recontactDays) => change({ recontactDays })}
      />
      <NumberField
        label="Delay (seconds)"
        min={0}
        value={draft.delay}
        error={issues.delay}
        onChange={(delay) => change({ delay: delay ?? 0 })}
      />
      <NumberField
        label="Auto-close after (seconds)"
        hint="Empty: off"
        min={1}
        value={draft.autoClose}
        error={issues.autoClose}
        onChange={(autoClose) => change({ autoClose })}
      />
      <NumberField
        label="Complete after N responses"
        hint="Empty: off"
        min={1}
        value={draft.autoComplete}
        error={issues.autoComplete}
        onChange={(autoComplete) => change({ autoComplete })}
      />
      <TextField
        label="Close on date (YYYY-MM-DD)"
        value={closeDate}
        error={issues.closeOnDate}
        onChange={(date) =>
          change({
            closeOnDate: date === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00.000Z` : date,
          })
        }
      />
      <NumberField
        label="Show to this percentage of visitors"
        hint="Empty: everyone"
        min={1}
        value={draft.displayPercentage}
        error={issues.displayPercentage}
        onChange={(displayPercentage) => change({ displayPercentage })}
      />
    </div>
  );
}
