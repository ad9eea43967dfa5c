import { useId, type FormEvent } from 'react';
import * as v from 'valibot';
import { SEGMENT_OPERATORS, type Segment, type Variant } from '../../../../domain/flipt/types';
import { Picker } from '../../../components/Picker';
import { variantOptions } from '../../../lib/options';
import { SegmentsPicker } from '../../../components/SegmentsPicker';
import { SubmitButton } from '../../../components/SubmitButton';
import { distributionsError, evenSplit } from './distributions';
import type { NewRule } from './api';
import { useForm, useSubmitting } from '../../../lib/form';

export type RuleKind = 'single' | 'multi';

/** Percentage inputs, one per variant. */
export function PercentageInputs({
  variants,
  percentages,
  onChange,
  disabled,
}: {
  variants: Pick<Variant, 'id' | 'key'>[];
  percentages: number[];
  onChange(percentages: number[]): void;
  disabled?: boolean;
}) {
  return (
    <div className="percentages">
      {variants.map((variant, index) => (
        <label key={variant.id} className="percentage">
          <span>{variant.key}</span>
          <input
            type="number"
            min={0}
            max={100}
            step={0.01}
            inputMode="decimal"
            aria-label={`Percentage for ${variant.key}`}
            disabled={disabled}
            value={Number.isFinite(percentages[index]) ? percentages[index] : ''}
            onChange={(event) =>
              onChange(percentages.map((value, i) => (i === index ? event.target.valueAsNumber : value)))
            }
          />
          <span aria-hidden="true">%</span>
        </label>
      ))}
    </div>
  );
}

const ruleSchema = v.pipe(
  v.object({
    segmentKeys: v.pipe(v.array(v.string()), v.minLength(1, 'Choose at least one segment')),
    segmentOperator: v.picklist(SEGMENT_OPERATORS),
    kind: v.picklist(['single', 'multi']),
    variantId: v.string(),
    percentages: v.array(v.number()),
  }),
  v.check(
    ({ kind, variantId, percentages }) =>
      kind === 'single' ? variantId !== '' : distributionsError(percentages) === undefined,
    'Choose a variant, or a split totalling 100%',
  ),
);
type RuleValues = v.InferInput<typeof ruleSchema>;

/** The New Rule form: segments, operator, then a single variant or a multi-variate split totalling 100%. */
export function RuleForm({
  variants,
  segments,
  onCreate,
}: {
  variants: Variant[];
  segments: Pick<Segment, 'key' | 'name'>[];
  onCreate(rule: NewRule): Promise<unknown>;
}) {
  const form = useForm<RuleValues>(
    {
      segmentKeys: [],
      segmentOperator: 'OR_SEGMENT_OPERATOR',
      kind: 'single',
      variantId: variants[0]?.id ?? '',
      percentages: evenSplit(variants.length),
    },
    ruleSchema,
  );
  const { segmentKeys, segmentOperator, kind, variantId, percentages } = form.values;
  const [submitting, track] = useSubmitting();
  const kindName = useId();
  const splitError = kind === 'multi' ? distributionsError(percentages) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const distributions =
      kind === 'single'
        ? variantId
          ? [{ variantId, rollout: 100 }]
          : []
        : variants.map((variant, index) => ({ variantId: variant.id, rollout: percentages[index] }));
    track(() => onCreate({ segmentKeys, segmentOperator, distributions }));
  };

  return (
    <form className="form" onSubmit={submit}>
      <SegmentsPicker
        segmentKeys={segmentKeys}
        available={segments}
        operator={segmentOperator}
        onChange={(keys, nextOperator) => form.update({ segmentKeys: keys, segmentOperator: nextOperator })}
      />
      <fieldset className="field">
        <legend>Type</legend>
        <label className="choice">
          <input type="radio" {...form.radio('kind', 'single')} name={kindName} />
          Single Variant
        </label>
        <label className="choice">
          <input type="radio" {...form.radio('kind', 'multi')} name={kindName} disabled={variants.length < 2} />
          Multi-Variate
        </label>
      </fieldset>
      {kind === 'single' ? (
        <Picker
          label="Variant"
          placeholder={variants.length ? 'Choose a variant' : 'No variants'}
          options={variantOptions(variants)}
          {...form.control('variantId')}
        />
      ) : (
        <fieldset className="field">
          <legend>Distribution</legend>
          <PercentageInputs
            variants={variants}
            percentages={percentages}
            onChange={form.control('percentages').onChange}
          />
          {splitError && <span className="field-error">{splitError}</span>}
        </fieldset>
      )}
      <div className="form-actions">
        <SubmitButton label="Create" submitting={submitting} ready={form.valid} />
      </div>
    </form>
  );
}
