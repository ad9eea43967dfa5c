import { BOOLEAN_LINK_VALUES } from '../../../domain/surveys/eligibility';
import type { Flag, Segment } from '../../../domain/flipt/types';
import type { TLinkedFlag } from '../../../domain/surveys/types';
import { useNamespaceEntity } from './api';
import { Field } from '../../components/Field';
import { useNamespaceKey } from '../../lib/namespace';

/** The values a survey can be linked to: a variant flag's variant keys, or a boolean flag's two values. */
export const linkValues = (flag: Pick<Flag, 'type' | 'variants'>): string[] =>
  flag.type === 'BOOLEAN_FLAG_TYPE' ? [...BOOLEAN_LINK_VALUES] : flag.variants.map((variant) => variant.key);

interface Props {
  linkedFlag: TLinkedFlag | null;
  segmentKey: string | null;
  issues: Record<string, string>;
  change(patch: { linkedFlag?: TLinkedFlag | null; segmentKey?: string | null }): void;
}

/**
 * Flipt targeting of a survey: a flag of the namespace and the values it must give the visitor, and a
 * Flipt segment the visitor's attributes must match.
 */
export function FlagTargeting({ linkedFlag, segmentKey, issues, change }: Props) {
  const namespaceKey = useNamespaceKey();
  const flagKey = linkedFlag?.flagKey ?? '';
  const flag = useNamespaceEntity<Flag>('flags', namespaceKey, flagKey.trim());
  const segment = useNamespaceEntity<Segment>('segments', namespaceKey, (segmentKey ?? '').trim());
  const values = flag.data ? linkValues(flag.data) : [];
  const chosen = linkedFlag?.variants ?? [];
  const toggle = (value: string, on: boolean) =>
    change({
      linkedFlag: { flagKey, variants: on ? [...chosen, value] : chosen.filter((other) => other !== value) },
    });
  const variantsProblem = issues['linkedFlag.variants'];
  return (
    <div className="form">
      <p className="muted">
        A linked flag or a segment shows the survey only to identified visitors (<code>formbricks.setUserId</code>): the
        flag is evaluated for their user id and attributes, as <code>/evaluate/v1</code> would, without counting in its
        analytics. Anonymous visitors never get a linked survey.
      </p>
      <Field
        label="Linked flag"
        error={issues['linkedFlag.flagKey'] ?? (flag.isError ? `No flag "${flagKey}" in this namespace` : undefined)}
        hint={flag.data ? flag.data.name : 'A flag key of this namespace; empty for none.'}
      >
        {(props) => (
          <input
            {...props}
            value={flagKey}
            onChange={(event) =>
              change({ linkedFlag: event.target.value === '' ? null : { flagKey: event.target.value, variants: [] } })
            }
          />
        )}
      </Field>
      {flag.data && (
        <fieldset className="field">
          <legend>{flag.data.type === 'BOOLEAN_FLAG_TYPE' ? 'When the flag is' : 'When the visitor gets'}</legend>
          {values.length === 0 && <p className="muted">This flag has no variants yet.</p>}
          {values.map((value) => (
            <label key={value} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(value)}
                onChange={(e) => toggle(value, e.target.checked)}
              />
              {value}
            </label>
          ))}
          {variantsProblem && <p className="field-error">{variantsProblem}</p>}
        </fieldset>
      )}
      <Field
        label="Flipt segment"
        error={issues.segmentKey ?? (segment.isError ? `No segment "${segmentKey}" in this namespace` : undefined)}
        hint={segment.data ? segment.data.name : 'A segment key of this namespace; empty for none.'}
      >
        {(props) => (
          <input {...props} value={segmentKey ?? ''} onChange={(e) => change({ segmentKey: e.target.value || null })} />
        )}
      </Field>
    </div>
  );
}
