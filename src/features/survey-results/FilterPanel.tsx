import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FILTER_OPS, type QuestionFilterOp, type ResponseFilter } from '../../../domain/surveys/response-filter';
import type { TSurvey } from '../../../domain/surveys/types';
import { useForm } from '../../lib/form';
import { tagsQuery } from './api';
import { type Draft, draftOf, draftSchema, filterOf, NUMBER_OPS, type Target, targetsOf } from './filter-draft';

const OP_LABELS: Record<QuestionFilterOp, string> = {
  submitted: 'Submitted',
  skipped: 'Skipped',
  equals: 'Is equal to',
  notEquals: 'Is not equal to',
  lessThan: 'Is less than',
  lessEqual: 'Is less or equal to',
  greaterThan: 'Is more than',
  greaterEqual: 'Is more or equal to',
  includesAll: 'Includes all of',
  includesOne: 'Includes either of',
  clicked: 'Clicked',
  accepted: 'Accepted',
  booked: 'Booked',
  uploaded: 'Uploaded',
  notUploaded: 'Not uploaded',
};
/**
 * The view's one filter, edited as rows and applied to the summary, the trends, the list and the CSV link
 * at once (through the address).
 */
export function FilterPanel({
  namespaceKey,
  environmentId,
  survey,
  filter,
  onApply,
  onClose,
}: {
  namespaceKey: string;
  environmentId: string;
  survey: TSurvey;
  filter: ResponseFilter;
  onApply(filter: ResponseFilter): void;
  onClose(): void;
}) {
  const form = useForm(draftOf(filter), draftSchema);
  const tags = useQuery(tagsQuery(namespaceKey, environmentId));
  const targets = targetsOf(survey);
  const tagNames = (tags.data ?? []).map((tag) => tag.name);

  return (
    <form
      className="results-filter"
      aria-label="Filter"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(filterOf(form.values, targets));
      }}
    >
      <div className="results-filter-row">
        <label className="field">
          <span>Completed</span>
          <select {...form.choice('finished')}>
            <option value="">All responses</option>
            <option value="true">Completed only</option>
            <option value="false">Not completed only</option>
          </select>
        </label>
        <label className="field">
          <span>From (UTC)</span>
          <input type="date" {...form.field('from')} />
        </label>
        <label className="field">
          <span>To (UTC)</span>
          <input type="date" {...form.field('to')} />
        </label>
      </div>

      <Rows
        legend="Attributes"
        rows={form.rows('attributes')}
        empty={{ key: '', op: 'equals', value: '' }}
        addLabel="Add attribute condition"
      >
        {(row, i, change) => (
          <>
            <input
              aria-label={`Attribute ${i + 1} key`}
              placeholder="Attribute key"
              value={row.key}
              onChange={(event) => change({ ...row, key: event.target.value })}
            />
            <select
              aria-label={`Attribute ${i + 1} operator`}
              value={row.op}
              onChange={(event) => change({ ...row, op: event.target.value as typeof row.op })}
            >
              <option value="equals">Equals</option>
              <option value="notEquals">Does not equal</option>
            </select>
            <input
              aria-label={`Attribute ${i + 1} value`}
              placeholder="Value"
              value={row.value}
              onChange={(event) => change({ ...row, value: event.target.value })}
            />
          </>
        )}
      </Rows>

      <Rows legend="Tags" rows={form.rows('tags')} empty={{ name: '', applied: true }} addLabel="Add tag condition">
        {(row, i, change) => (
          <>
            <select
              aria-label={`Tag ${i + 1}`}
              value={row.name}
              onChange={(event) => change({ ...row, name: event.target.value })}
            >
              <option value="">Choose a tag</option>
              {[...new Set([...tagNames, ...(row.name ? [row.name] : [])])].map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <select
              aria-label={`Tag ${i + 1} condition`}
              value={row.applied ? 'applied' : 'notApplied'}
              onChange={(event) => change({ ...row, applied: event.target.value === 'applied' })}
            >
              <option value="applied">Applied</option>
              <option value="notApplied">Not applied</option>
            </select>
          </>
        )}
      </Rows>

      <Rows
        legend="Questions"
        rows={form.rows('questions')}
        empty={{ id: '', op: 'submitted', value: '', choices: [] }}
        addLabel="Add question condition"
      >
        {(row, i, change) => <QuestionCondition row={row} index={i} targets={targets} onChange={change} />}
      </Rows>

      {survey.linkedFlag && (
        <fieldset>
          <legend>Flag {survey.linkedFlag.flagKey}</legend>
          <div className="results-filter-row">
            {survey.linkedFlag.variants.map((value) => (
              <label key={value} className="check">
                <input type="checkbox" {...form.member('flagValues', value)} />
                {value}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <div className="form-actions">
        <button type="button" className="button" onClick={() => form.reset(draftOf({}))}>
          Clear all
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button-primary">
          Apply filter
        </button>
      </div>
    </form>
  );
}

/** A fieldset of condition rows, each with its Remove button, and a button that adds an empty row. */
function Rows<R>({
  legend,
  rows,
  empty,
  addLabel,
  children,
}: {
  legend: string;
  rows: { list: readonly R[]; change(index: number, row: R): void; remove(index: number): void; add(row: R): void };
  empty: R;
  addLabel: string;
  children(row: R, index: number, change: (row: R) => void): ReactNode;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {rows.list.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
        <div key={i} className="results-filter-row">
          {children(row, i, (next) => rows.change(i, next))}
          <button type="button" className="button" onClick={() => rows.remove(i)}>
            Remove
          </button>
        </div>
      ))}
      <div>
        <button type="button" className="link-button" onClick={() => rows.add(empty)}>
          {addLabel}
        </button>
      </div>
    </fieldset>
  );
}

/** One question condition: the question (or hidden field), its operator, and a value or choices where the operator takes them. */
function QuestionCondition({
  row,
  index,
  targets,
  onChange,
}: {
  row: Draft['questions'][number];
  index: number;
  targets: Target[];
  onChange(row: Draft['questions'][number]): void;
}) {
  const target = targets.find((candidate) => candidate.id === row.id);
  const ops = target ? FILTER_OPS[target.type] : [];
  const label = `Question ${index + 1}`;
  return (
    <>
      <select
        aria-label={label}
        value={row.id}
        onChange={(event) => {
          const next = targets.find((candidate) => candidate.id === event.target.value);
          onChange({
            id: event.target.value,
            op: next ? FILTER_OPS[next.type][0] : 'submitted',
            value: '',
            choices: [],
          });
        }}
      >
        <option value="">Choose a question</option>
        {targets.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.label}
          </option>
        ))}
      </select>
      {target && (
        <select
          aria-label={`${label} condition`}
          value={row.op}
          onChange={(event) => onChange({ ...row, op: event.target.value as QuestionFilterOp })}
        >
          {ops.map((op) => (
            <option key={op} value={op}>
              {OP_LABELS[op]}
            </option>
          ))}
        </select>
      )}
      {target && NUMBER_OPS.includes(row.op) && (
        <input
          aria-label={`${label} value`}
          type={target.type === 'hiddenField' ? 'text' : 'number'}
          value={row.value}
          onChange={(event) => onChange({ ...row, value: event.target.value })}
        />
      )}
      {target && (row.op === 'includesAll' || row.op === 'includesOne') && (
        <select
          aria-label={`${label} choices`}
          multiple
          value={row.choices}
          onChange={(event) =>
            onChange({ ...row, choices: [...event.target.selectedOptions].map((option) => option.value) })
          }
        >
          {target.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      )}
    </>
  );
}
