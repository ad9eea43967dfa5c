import type { EvaluationExplanation, SegmentTrace, StepTrace } from '../../../domain/evaluation/index';
import type { SegmentOperator } from '../../../domain/flipt/types';
import { operatorLabel } from '../segments';
import type { Difference } from './evaluation';
import { Icon } from '../../components/Icon';

const Outcome = ({ matched }: { matched: boolean }) => (
  <span className={matched ? 'outcome-match' : 'outcome-fail'}>
    <Icon name={matched ? 'check' : 'cross'} size={14} />
    {matched ? 'matched' : 'not matched'}
  </span>
);

const SEGMENT_OPERATORS: Record<SegmentOperator, string> = {
  OR_SEGMENT_OPERATOR: 'any segment (OR)',
  AND_SEGMENT_OPERATOR: 'all segments (AND)',
};

function Segment({ segment, context }: { segment: SegmentTrace; context: Record<string, string> }) {
  return (
    <div className="explanation-segment">
      <p>
        Segment <code>{segment.key}</code>{' '}
        <span className="muted">
          (
          {segment.matchType === 'ALL_SEGMENT_MATCH_TYPE'
            ? 'all constraints must match'
            : 'at least one constraint must match'}
          )
        </span>{' '}
        <Outcome matched={segment.matched} />
      </p>
      {segment.constraints.length === 0 ? (
        <p className="muted">No constraints: every entity matches.</p>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Constraints of segment {segment.key}</caption>
          <thead>
            <tr>
              <th scope="col">Property</th>
              <th scope="col">Operator</th>
              <th scope="col">Expected</th>
              <th scope="col">Context value</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {segment.constraints.map((constraint) => {
              const entity = constraint.type === 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE';
              const present = entity || Object.hasOwn(context, constraint.property);
              return (
                <tr key={constraint.id}>
                  <td>{entity ? 'entityId' : constraint.property}</td>
                  <td>{operatorLabel(constraint.type.replace('_CONSTRAINT_', '_'), constraint.operator)}</td>
                  <td>{constraint.value}</td>
                  <td>{present ? constraint.contextValue : <span className="muted">(not set)</span>}</td>
                  <td>
                    <Outcome matched={constraint.matched} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Step({ step, variantKey, context }: { step: StepTrace; variantKey: string; context: Record<string, string> }) {
  if (step.kind === 'threshold') {
    return (
      <>
        <p>
          Threshold rollout {step.rank}: {step.percentage}% of entities get <code>{String(step.value)}</code>{' '}
          <Outcome matched={step.matched} />
        </p>
        <p className="muted">
          The entity's bucket is {step.bucket} of 100, {step.matched ? 'below' : 'not below'} {step.percentage}.
        </p>
      </>
    );
  }
  const title = step.kind === 'rule' ? `Rule ${step.rank}` : `Segment rollout ${step.rank}`;
  return (
    <>
      <p>
        {title}: {SEGMENT_OPERATORS[step.segmentOperator]}
        {step.kind === 'segment' && (
          <>
            {' '}
            gives <code>{String(step.value)}</code>
          </>
        )}{' '}
        <Outcome matched={step.matched} />
      </p>
      {step.segments.map((segment) => (
        <Segment key={segment.key} segment={segment} context={context} />
      ))}
      {step.kind === 'rule' && step.bucket !== undefined && (
        <p className="muted">
          The entity's bucket is {step.bucket} of 1000:{' '}
          {step.distribution === -1 ? (
            'past the distributions, so no variant.'
          ) : (
            <>
              distribution {step.distribution! + 1}, variant <code>{variantKey}</code>.
            </>
          )}
        </p>
      )}
    </>
  );
}

/** Why the flag evaluated as it did for this context, and whether the server agrees. */
export function Explanation({
  explanation,
  context,
  differences,
}: {
  explanation: EvaluationExplanation;
  context: Record<string, string>;
  differences: Difference[];
}) {
  const { result, steps } = explanation;
  const variantKey = result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE' ? result.variant.variantKey : '';
  const decided = steps.some((step) => step.matched);
  return (
    <section aria-labelledby="explanation-heading" className="explanation">
      <h2 id="explanation-heading">Explanation</h2>
      {differences.length === 0 ? (
        <p className="outcome-match">Matches the server's answer.</p>
      ) : (
        <div role="alert" className="outcome-fail">
          <p>Differs from the server's answer:</p>
          <ul>
            {differences.map((difference) => (
              <li key={difference.field}>
                {difference.field}: console <code>{difference.console}</code>, server <code>{difference.server}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {explanation.flagType === 'VARIANT_FLAG_TYPE' && !explanation.flagEnabled ? (
        <p>The flag is disabled: no rules are evaluated.</p>
      ) : steps.length === 0 ? (
        <p>
          The flag has no {explanation.flagType === 'VARIANT_FLAG_TYPE' ? 'rules' : 'rollouts'} with segments or
          thresholds.
        </p>
      ) : (
        <ol className="explanation-steps">
          {steps.map((step) => (
            <li key={`${step.kind}-${step.rank}`}>
              <Step step={step} variantKey={variantKey} context={context} />
            </li>
          ))}
        </ol>
      )}
      {!decided && steps.length > 0 && <p>Nothing matched: the flag's default applies.</p>}
      <p>
        Reason: <code>{'variant' in result ? result.variant.reason : result.boolean.reason}</code>
      </p>
    </section>
  );
}
