import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FILTER_OPS, type QuestionFilterOp, type ResponseFilter } from '../../../domain/surveys/response-filter';
import type { TSurvey } from '../../../domain/surveys/types';
import { tagsQuery } from './api';
import { type AttributeRow, type Draft, draftOf, filterOf, NUMBER_OPS, targetsOf } from './filter-draft';

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
  const [draft, setDraft] = useState(() => draftOf(filter));
  const tags = useQuery(tagsQuery(namespaceKey, environmentId));
  const targets = targetsOf(survey);
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const replace = <K extends 'attributes' | 'tags' | 'questions'>(key: K, index: number, row: Draft[K][number]) =>
    change({ [key]: draft[key].map((item, i) => (i === index ? row : item)) } as Partial<Draft>);
  const drop = (key: 'attributes' | 'tags' | 'questions', index: number) =>
    change({ [key]: draft[key].filter((_, i) => i !== index) } as Partial<Draft>);

  return (
    <form
      className="results-filter"
      aria-label="Filter"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(filterOf(draft, targets));
      }}
    >
      <div className="results-filter-row">
        <label className="field">
          <span>Completed</span>
          <select
            value={draft.finished}
            onChange={(event) => change({ finished: event.target.value as Draft['finished'] })}
          >
            <option value="">All responses</option>
            <option value="true">Completed only</option>
            <option value="false">Not completed only</option>
          </select>
        </label>
        <label className="field">
          <span>From (UTC)</span>
          <input type="date" value={draft.from} onChange={(event) => change({ from: event.target.value })} />
        </label>
        <label className="field">
          <span>To (UTC)</span>
          <input type="date" value={draft.to} onChange={(event) => change({ to: event.target.value })} />
        </label>
      </div>

      <fieldset>
        <legend>Attributes</legend>
        {draft.attributes.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <div key={i} className="results-filter-row">
            <input
              aria-label={`Attribute ${i + 1} key`}
              placeholder="Attribute key"
              value={row.key}
              onChange={(event) => replace('attributes', i, { ...row, key: event.target.value })}
            />
            <select
              aria-label={`Attribute ${i + 1} operator`}
              value={row.op}
              onChange={(event) => replace('attributes', i, { ...row, op: event.target.value as AttributeRow['op'] })}
            >
              <option value="equals">Equals</option>
              <option value="notEquals">Does not equal</option>
            </select>
            <input
              aria-label={`Attribute ${i + 1} value`}
              placeholder="Value"
              value={row.value}
              onChange={(event) => replace('attributes', i, { ...row, value: event.target.value })}
            />
            <button type="button" className="button" onClick={() => drop('attributes', i)}>
              Remove
            </button>
          </div>
        ))}
        <div>
          <button
            type="button"
            className="link-button"
            onClick={() => change({ attributes: [...draft.attributes, { key: '', op: 'equals', value: '' }] })}
          >
            Add attribute condition
          </button>
        </div>
      </fieldset>

      <fieldset>
        <legend>Tags</legend>
        {draft.tags.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <div key={i} className="results-filter-row">
            <select
              aria-label={`Tag ${i + 1}`}
              value={row.name}
              onChange={(event) => replace('tags', i, { ...row, name: event.target.value })}
            >
              <option value="">Choose a tag</option>
              {[...new Set([...(tags.data ?? []).map((tag) => tag.name), ...(row.name ? [row.name] : [])])].map(
                (name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ),
              )}
            </select>
            <select
              aria-label={`Tag ${i + 1} condition`}
              value={row.applied ? 'applied' : 'notApplied'}
              onChange={(event) => replace('tags', i, { ...row, applied: event.target.value === 'applied' })}
            >
              <option value="applied">Applied</option>
              <option value="notApplied">Not applied</option>
            </select>
            <button type="button" className="button" onClick={() => drop('tags', i)}>
              Remove
            </button>
          </div>
        ))}
        <div>
          <button
            type="button"
            className="link-button"
            onClick={() => change({ tags: [...draft.tags, { name: '', applied: true }] })}
          >
            Add tag condition
          </button>
        </div>
      </fieldset>

      <fieldset>
        <legend>Questions</legend>
        {draft.questions.map((row, i) => {
          const target = targets.find((candidate) => candidate.id === row.id);
          const ops = target ? FILTER_OPS[target.type] : [];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
            <div key={i} className="results-filter-row">
              <select
                aria-label={`Question ${i + 1}`}
                value={row.id}
                onChange={(event) => {
                  const next = targets.find((candidate) => candidate.id === event.target.value);
                  replace('questions', i, {
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
                  aria-label={`Question ${i + 1} condition`}
                  value={row.op}
                  onChange={(event) => replace('questions', i, { ...row, op: event.target.value as QuestionFilterOp })}
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
                  aria-label={`Question ${i + 1} value`}
                  type={target.type === 'hiddenField' ? 'text' : 'number'}
                  value={row.value}
                  onChange={(event) => replace('questions', i, { ...row, value: event.target.value })}
                />
              )}
              {target && (row.op === 'includesAll' || row.op === 'includesOne') && (
                <select
                  aria-label={`Question ${i + 1} choices`}
                  multiple
                  value={row.choices}
                  onChange={(event) =>
                    replace('questions', i, {
                      ...row,
                      choices: [...event.target.selectedOptions].map((option) => option.value),
                    })
                  }
                >
                  {target.choices.map((choice) => (
                    <option key={choice} value={choice}>
                      {choice}
                    </option>
                  ))}
                </select>
              )}
              <button type="button" className="button" onClick={() => drop('questions', i)}>
                Remove
              </button>
            </div>
          );
        })}
        <div>
          <button
            type="button"
            className="link-button"
            onClick={() =>
              change({ questions: [...draft.questions, { id: '', op: 'submitted', value: '', choices: [] }] })
            }
          >
            Add question condition
          </button>
        </div>
      </fieldset>

      {survey.linkedFlag && (
        <fieldset>
          <legend>Flag {survey.linkedFlag.flagKey}</legend>
          <div className="results-filter-row">
            {survey.linkedFlag.variants.map((value) => (
              <label key={value} className="check">
                <input
                  type="checkbox"
                  checked={draft.flagValues.includes(value)}
                  onChange={(event) =>
                    change({
                      flagValues: event.target.checked
                        ? [...draft.flagValues, value]
                        : draft.flagValues.filter((other) => other !== value),
                    })
                  }
                />
                {value}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <div className="form-actions">
        <button type="button" className="button" onClick={() => setDraft(draftOf({}))}>
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
