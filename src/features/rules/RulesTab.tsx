import '../../app/shared-chunk';
import { ReasonButton } from '../../components/Tooltip';
import { useState } from 'react';
import type { Distribution, Rule, Variant } from '../../../domain/flipt/types';
import { errorMessage } from '../../api/client';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { SortableList } from '../../components/SortableList';
import { toastError, toastSuccess } from '../../stores/toasts';
import { flagValues, useFlagMutations, type FlagTabProps } from '../flags';
import { READ_ONLY_TITLE, useReadOnly } from '../../api/meta';
import { useSegments } from '../segments';
import { distributionsError } from './distributions';
import { SEGMENT_OPERATOR_LABELS } from '../../components/SegmentsPicker';
import { segmentsOf } from '../../lib/segments';
import { useRuleMutations, useRules } from './queries';
import { PercentageInputs, RuleForm } from './RuleForm';
import { NO_VARIANT, variantOptions } from '../../lib/options';
import { Picker } from '../../components/Picker';
import { useSubmitting } from '../../lib/form';

function SegmentList({ segmentKeys, operator }: { segmentKeys: string[]; operator: Rule['segmentOperator'] }) {
  return (
    <p className="rule-segments">
      {segmentKeys.map((key, index) => (
        <span key={key}>
          {index > 0 && <span className="operator"> {SEGMENT_OPERATOR_LABELS[operator]} </span>}
          <code>{key}</code>
        </span>
      ))}
    </p>
  );
}

/** A rule's distributions, editable in place; Update PUTs each distribution. */
function Distributions({
  rule,
  variants,
  readOnly,
  onUpdate,
}: {
  rule: Rule;
  variants: Variant[];
  readOnly: boolean;
  onUpdate(distributions: Distribution[]): Promise<unknown>;
}) {
  const initial = rule.distributions.map((distribution) => distribution.rollout);
  const [percentages, setPercentages] = useState(initial);
  const [submitting, track] = useSubmitting();
  if (rule.distributions.length === 0) return <p className="muted">No variant: matching entities get no variant.</p>;
  const shown = rule.distributions.map((distribution) => ({
    id: distribution.id,
    key: variants.find((variant) => variant.id === distribution.variantId)?.key ?? distribution.variantId,
  }));
  const changed = percentages.some((value, index) => value !== initial[index]);
  const error = distributionsError(percentages);
  return (
    <form
      className="distributions"
      onSubmit={(event) => {
        event.preventDefault();
        track(() =>
          onUpdate(rule.distributions.map((distribution, index) => ({ ...distribution, rollout: percentages[index] }))),
        );
      }}
    >
      <PercentageInputs variants={shown} percentages={percentages} onChange={setPercentages} disabled={readOnly} />
      {changed && error && <span className="field-error">{error}</span>}
      <ReasonButton
        type="submit"
        className="button"
        disabled={!changed || !!error || submitting}
        reason={readOnly ? READ_ONLY_TITLE : undefined}
      >
        Update
      </ReasonButton>
    </form>
  );
}

/** The variant returned when no rule matches: the flag's default variant. */
function DefaultRule({ namespaceKey, flag, readOnly }: FlagTabProps & { readOnly: boolean }) {
  const mutations = useFlagMutations(namespaceKey);
  const current = flag.defaultVariant?.id ?? '';
  const [variantId, setVariantId] = useState(current);
  const [submitting, track] = useSubmitting();
  return (
    <form
      className="rule default-rule"
      aria-label="Default Rule"
      onSubmit={(event) => {
        event.preventDefault();
        track(() =>
          mutations.update
            .mutateAsync({ flagKey: flag.key, values: flagValues(flag), defaultVariantId: variantId || null })
            .then(() =>
              toastSuccess(variantId ? 'Successfully updated default variant' : 'Successfully removed default variant'),
            )
            .catch((error) => toastError(errorMessage(error))),
        );
      }}
    >
      <div>
        <h3>Default Rule</h3>
        <p className="muted">The variant when no rule matches.</p>
      </div>
      <Picker
        label="Default Variant"
        placeholder="None"
        options={[NO_VARIANT, ...variantOptions(flag.variants)]}
        value={variantId}
        disabled={readOnly}
        onChange={setVariantId}
      />
      <ReasonButton
        type="submit"
        className="button"
        disabled={variantId === current || submitting}
        reason={readOnly ? READ_ONLY_TITLE : undefined}
      >
        Update
      </ReasonButton>
    </form>
  );
}

export default function RulesTab({ namespaceKey, flag }: FlagTabProps) {
  const readOnly = useReadOnly();
  const rules = useRules(namespaceKey, flag.key);
  const segments = useSegments(namespaceKey);
  const mutations = useRuleMutations(namespaceKey, flag.key);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const disabledTitle = readOnly ? READ_ONLY_TITLE : undefined;

  if (rules.isPending) return <p className="muted">Loading…</p>;
  if (rules.isError) return <p role="alert">{rules.error.message}</p>;
  const list = rules.data.rules;

  return (
    <section aria-label="Rules">
      <header className="section-header">
        <div>
          <h2>Rules</h2>
          <p className="muted">
            Evaluated in order, top to bottom: the first rule whose segments match decides the variant.
          </p>
        </div>
        <ReasonButton className="button button-primary" reason={disabledTitle} onClick={() => setCreating(true)}>
          New Rule
        </ReasonButton>
      </header>
      {list.length === 0 ? (
        <p className="muted">This flag has no rules.</p>
      ) : (
        <SortableList
          items={list}
          itemKey={(rule) => rule.id}
          itemLabel={(_rule, index) => `rule ${index + 1}`}
          disabled={readOnly}
          disabledReason={disabledTitle}
          onReorder={(next) =>
            mutations.order
              .mutateAsync(next)
              .then(() => toastSuccess('Successfully reordered rules'))
              .catch((error) => toastError(errorMessage(error)))
          }
        >
          {(rule, index) => (
            <article className="rule" aria-label={`Rule ${index + 1}`}>
              <header className="rule-header">
                <strong>Rule {index + 1}</strong>
                <SegmentList segmentKeys={segmentsOf(rule)} operator={rule.segmentOperator} />
                <ReasonButton className="link-button danger" reason={disabledTitle} onClick={() => setDeleting(rule)}>
                  Delete<span className="visually-hidden"> rule {index + 1}</span>
                </ReasonButton>
              </header>
              <Distributions
                key={rule.distributions.map((distribution) => `${distribution.id}:${distribution.rollout}`).join()}
                rule={rule}
                variants={flag.variants}
                readOnly={readOnly}
                onUpdate={(distributions) =>
                  mutations.updateDistributions
                    .mutateAsync({ ruleId: rule.id, distributions })
                    .then(() => toastSuccess('Successfully updated rule'))
                    .catch((error) => toastError(errorMessage(error)))
                }
              />
            </article>
          )}
        </SortableList>
      )}
      <DefaultRule key={flag.defaultVariant?.id ?? ''} namespaceKey={namespaceKey} flag={flag} readOnly={readOnly} />
      <Dialog open={creating} onClose={() => setCreating(false)} title="New Rule" side>
        {creating && (
          <RuleForm
            variants={flag.variants}
            segments={segments.data?.segments ?? []}
            onCreate={(rule) =>
              mutations.create
                .mutateAsync({ rule, rank: list.length + 1 })
                .then(() => {
                  setCreating(false);
                  toastSuccess('Successfully created rule');
                })
                .catch((error) => toastError(errorMessage(error)))
            }
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete Rule"
        onConfirm={() =>
          mutations.remove
            .mutateAsync(deleting!.id)
            .then(() => toastSuccess('Successfully deleted rule'))
            .catch((error) => toastError(errorMessage(error)))
        }
      >
        Are you sure you want to delete the rule for <strong>{deleting ? segmentsOf(deleting).join(', ') : ''}</strong>?
      </ConfirmDialog>
    </section>
  );
}
