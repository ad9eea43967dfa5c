import { useId, useState, type FormEvent } from 'react';
import type { Segment, SegmentOperator, Variant } from '../../../../domain/flipt/types';
import { Picker } from '../../../components/Picker';
import { variantOptions } from '../../../lib/options';
import { SegmentsPicker } from '../../../components/SegmentsPicker';
import { SubmitButton } from '../../../components/SubmitButton';
import { distributionsError, evenSplit } from './distributions';
import type { NewRule } from './api';
import { useSubmitting } from '../../../lib/form';

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
  const [segmentKeys, setSegmentKeys] = useState<string[]>([]);
  const [operator, setOperator] = useState<SegmentOperator>('OR_SEGMENT_OPERATOR');
  const [kind, setKind] = useState<RuleKind>('single');
  const [variantId, setVariantId] = useState(variants[0]?.id ?? '');
  const [percentages, setPercentages] = useState(() => evenSplit(variants.length));
  const [submitting, track] = useSubmitting();
  const kindName = useId();

  const splitError = kind === 'multi' ? distributionsError(percentages) : undefined;
  const ready = segmentKeys.length > 0 && (kind === 'single' ? variantId !== '' : !splitError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const distributions =
      kind === 'single'
        ? variantId
          ? [{ variantId, rollout: 100 }]
          : []
        : variants.map((variant, index) => ({ variantId: variant.id, rollout: percentages[index] }));
    track(() => onCreate({ segmentKeys, segmentOperator: operator, distributions }));
  };

  return (
    <form className="form" onSubmit={submit}>
      <SegmentsPicker
        segmentKeys={segmentKeys}
        available={segments}
        operator={operator}
        onChange={(keys, nextOperator) => {
          setSegmentKeys(keys);
          setOperator(nextOperator);
        }}
      />
      <fieldset className="field">
        <legend>Type</legend>
        <label className="choice">
          <input type="radio" name={kindName} checked={kind === 'single'} onChange={() => setKind('single')} />
          Single Variant
        </label>
        <label className="choice">
          <input
            type="radio"
            name={kindName}
            checked={kind === 'multi'}
            disabled={variants.length < 2}
            onChange={() => setKind('multi')}
          />
          Multi-Variate
        </label>
      </fieldset>
      {kind === 'single' ? (
        <Picker
          label="Variant"
          placeholder={variants.length ? 'Choose a variant' : 'No variants'}
          options={variantOptions(variants)}
          value={variantId}
          onChange={setVariantId}
        />
      ) : (
        <fieldset className="field">
          <legend>Distribution</legend>
          <PercentageInputs variants={variants} percentages={percentages} onChange={setPercentages} />
          {splitError && <span className="field-error">{splitError}</span>}
        </fieldset>
      )}
      <div className="form-actions">
        <SubmitButton label="Create" submitting={submitting} ready={ready} />
      </div>
    </form>
  );
}
