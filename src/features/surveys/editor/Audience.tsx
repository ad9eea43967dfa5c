import { ATTRIBUTE_OPERATORS } from '../../../../domain/surveys/schema';
import { attributeFilters, withAttributeFilter } from './editor-model';
import { type PartProps, SelectField, TextField } from './fields';

const OPERATOR_LABELS: Record<string, string> = {
  equals: 'equals',
  notEquals: 'does not equal',
  lessThan: 'is less than',
  lessEqual: 'is at most',
  greaterThan: 'is greater than',
  greaterEqual: 'is at least',
  isSet: 'is set',
  isNotSet: 'is not set',
  contains: 'contains',
  doesNotContain: 'does not contain',
  startsWith: 'starts with',
  endsWith: 'ends with',
};

export function Audience({ draft, issues, change }: PartProps) {
  const { rows, others } = attributeFilters(draft);
  const set = (index: number, row: Parameters<typeof withAttributeFilter>[2]) =>
    change(withAttributeFilter(draft, index, row));
  const problem = Object.entries(issues).find(([path]) => path.startsWith('segment'))?.[1];
  return (
    <>
      <p className="muted">
        Everyone, unless filters below say otherwise. Filters apply to identified visitors (
        <code>formbricks.setUserId</code>) by their attributes.
      </p>
      {rows.map((row, i) => (
        <div key={row.index} className="filter-row">
          {i > 0 && (
            <SelectField
              label="Join"
              value={row.connector}
              options={[
                ['and', 'and'],
                ['or', 'or'],
              ]}
              onChange={(connector) => set(row.index, { ...row, connector })}
            />
          )}
          <TextField
            label={`Attribute ${i + 1}`}
            value={row.attribute}
            onChange={(attribute) => set(row.index, { ...row, attribute })}
          />
          <SelectField
            label="Operator"
            value={row.operator}
            options={ATTRIBUTE_OPERATORS.map((operator) => [operator, OPERATOR_LABELS[operator]] as const)}
            onChange={(operator) => set(row.index, { ...row, operator })}
          />
          {row.operator !== 'isSet' && row.operator !== 'isNotSet' && (
            <TextField label="Value" value={row.value} onChange={(value) => set(row.index, { ...row, value })} />
          )}
          <button type="button" className="link-button" onClick={() => set(row.index, undefined)}>
            Remove filter {i + 1}
          </button>
        </div>
      ))}
      {others > 0 && <p className="muted">{others} other filter(s) (groups, person or device) are kept as they are.</p>}
      {problem && <p className="field-error">{problem}</p>}
      <button
        type="button"
        className="link-button"
        onClick={() => set(-1, { connector: 'and', attribute: '', operator: 'equals', value: '' })}
      >
        Add attribute filter
      </button>
    </>
  );
}
