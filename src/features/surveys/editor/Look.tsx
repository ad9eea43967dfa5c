import { PLACEMENTS } from '../../../../domain/surveys/schema';
import type { SurveyEnvironment } from '../api';
import { PLACEMENT_LABELS } from '../labels';
import { OptionalTextField, type PartProps, SelectField } from './fields';

export function Look({ draft, environment, issues, change }: PartProps & { environment: SurveyEnvironment }) {
  const overrides = draft.productOverwrites ?? {};
  const set = (patch: Record<string, unknown>) => {
    const next = Object.fromEntries(
      Object.entries({ ...overrides, ...patch }).filter(([, value]) => value !== undefined),
    );
    change({ productOverwrites: Object.keys(next).length ? next : null });
  };
  const at = (field: string) => issues[`productOverwrites.${field}`];
  const { product } = environment;
  const flag = (field: 'clickOutsideClose' | 'darkOverlay', label: string) => (
    <SelectField
      label={label}
      value={overrides[field] === undefined || overrides[field] === null ? 'product' : overrides[field] ? 'on' : 'off'}
      options={[
        ['product', `Product setting (${product[field] ? 'on' : 'off'})`],
        ['on', 'On'],
        ['off', 'Off'],
      ]}
      onChange={(value) => set({ [field]: value === 'product' ? undefined : value === 'on' })}
    />
  );
  return (
    <div className="form-grid">
      <OptionalTextField
        label="Brand colour"
        placeholder={product.brandColor}
        value={overrides.brandColor ?? ''}
        error={at('brandColor')}
        onChange={(brandColor) => set({ brandColor })}
      />
      <OptionalTextField
        label="Highlight border colour"
        placeholder={product.highlightBorderColor ?? 'none'}
        value={overrides.highlightBorderColor ?? ''}
        error={at('highlightBorderColor')}
        onChange={(highlightBorderColor) => set({ highlightBorderColor })}
      />
      <SelectField
        label="Placement"
        value={overrides.placement ?? 'product'}
        options={[
          ['product', `Product setting (${PLACEMENT_LABELS[product.placement]})`] as const,
          ...PLACEMENTS.map((p) => [p, PLACEMENT_LABELS[p]] as const),
        ]}
        onChange={(placement) => set({ placement: placement === 'product' ? undefined : placement })}
      />
      {flag('clickOutsideClose', 'Close on click outside')}
      {flag('darkOverlay', 'Dark overlay')}
    </div>
  );
}
