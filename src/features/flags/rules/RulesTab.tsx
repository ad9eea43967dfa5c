import '../../../app/shared-chunk';
import { ReasonButton } from '../../../components/Tooltip';
import { useState } from 'react';
import type { Distribution, Rule, Variant } from '../../../../domain/flipt/types';
import { errorMessage } from '../../../api/client';
import { useWritable } from '../../../api/writable';
import { ConfirmDialog, Dialog } from '../../../components/Dialog';
import { Picker } from '../../../components/Picker';
import { SortableList } from '../../../components/SortableList';
import { useSubmitting } from '../../../lib/form';
import { NO_VARIANT, variantOptions } from '../../../lib/options';
import { segmentsOf } from '../../../lib/segments';
import { toastError, toastSuccess } from '../../../stores/toasts';
import { useSegments } from '../../segments';
import { flagValues, useUpdateFlag } from '../api';
import { SegmentNames } from '../SegmentNames';
import type { FlagTabProps } from '../tab-props';
import { useCreateRule, useDeleteRule, useOrderRules, useRules, useUpdateDistributions } from './api';
import { distributionsError } from './distributions';
import { PercentageInputs, RuleForm } from './RuleForm';

/** A rule's distributions, editable in place; Update PUTs each distribution. */
function Distributions({
  rule,
  variants,
  onUpdate,
}: {
  rule: Rule;
  variants: Variant[];
  onUpdate(distributions: Distribution[]): Promise<unknown>;
}) {
  const initial = rule.distributions.map((distribution) => distribution.rollout);
  const [percentages, setPercentages] = useState(initial);
  const [submitting, track] = useSubmitting();
  const { disabled, reason } = useWritable();
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
      <PercentageInputs variants={shown} percentages={percentages} onChange={setPercentages} disabled={disabled} />
      {changed && error && <span className="field-error">{error}</span>}
      <ReasonButton type="submit" className="button" disabled={!changed || !!error || submitting} reason={reason}>
        Update
      </ReasonButton>
    </form>
  );
}

/** The variant returned when no rule matches: the flag's default variant. */
function DefaultRule({ namespaceKey, flag }: FlagTabProps) {
  const update = useUpdateFlag(namespaceKey);
  const { disabled, reason } = useWritable();
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
          update
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
        disabled={disabled}
        onChange={setVariantId}
      />
      <ReasonButton type="submit" className="button" disabled={variantId === current || submitting} reason={reason}>
        Update
      </ReasonButton>
    </form>
  );
}

export default function RulesTab({ namespaceKey, flag }: FlagTabProps) {
  const writable = useWritable();
  const rules = useRules(namespaceKey, flag.key);
  const segments = useSegments(namespaceKey);
  const createRule = useCreateRule(namespaceKey, flag.key);
  const updateDistributions = useUpdateDistributions(namespaceKey, flag.key);
  const deleteRule = useDeleteRule(namespaceKey, flag.key);
  const orderRules = useOrderRules(namespaceKey, flag.key);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Rule | null>(null);

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
        <ReasonButton className="button button-primary" reason={writable.reason} onClick={() => setCreating(true)}>
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
          disabled={writable.disabled}
          disabledReason={writable.reason}
          onReorder={(next) =>
            orderRules
              .mutateAsync(next)
              .then(() => toastSuccess('Successfully reordered rules'))
              .catch((error) => toastError(errorMessage(error)))
          }
        >
          {(rule, index) => (
            <article className="rule" aria-label={`Rule ${index + 1}`}>
              <header className="rule-header">
                <strong>Rule {index + 1}</strong>
                <SegmentNames
                  segmentKeys={segmentsOf(rule)}
                  operator={rule.segmentOperator}
                  segments={segments.data?.segments ?? []}
                />
                <ReasonButton className="link-button danger" reason={writable.reason} onClick={() => setDeleting(rule)}>
                  Delete<span className="visually-hidden"> rule {index + 1}</span>
                </ReasonButton>
              </header>
              <Distributions
                key={rule.distributions.map((distribution) => `${distribution.id}:${distribution.rollout}`).join()}
                rule={rule}
                variants={flag.variants}
                onUpdate={(distributions) =>
                  updateDistributions
                    .mutateAsync({ ruleId: rule.id, distributions })
                    .then(() => toastSuccess('Successfully updated rule'))
                    .catch((error) => toastError(errorMessage(error)))
                }
              />
            </article>
          )}
        </SortableList>
      )}
      <DefaultRule key={flag.defaultVariant?.id ?? ''} namespaceKey={namespaceKey} flag={flag} />
      <Dialog open={creating} onClose={() => setCreating(false)} title="New Rule" side>
        {creating && (
          <RuleForm
            variants={flag.variants}
            segments={segments.data?.segments ?? []}
            onCreate={(rule) =>
              createRule
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
          deleteRule
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
