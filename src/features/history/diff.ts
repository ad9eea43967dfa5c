import type { EntityState, FlagState, HistoryEntityType } from '../../../domain/flipt/history';
import type { Constraint, Namespace, Rollout, Rule, Segment, Variant } from '../../../domain/flipt/types';
import type { DiffRow } from '../../components/DiffTable';
import { segmentsOf } from '../../lib/segments';
import { operatorLabel } from '../segments';

type Described<T> = { label(item: T): string; text(item: T): string };

/** Lines for each field whose text differs; a field absent on one side reads ''. */
function fieldLines<T>(fields: [string, (state: T) => string][], before?: T, after?: T): DiffRow[] {
  return fields.flatMap(([label, read]) => {
    const was = before ? read(before) : '';
    const is = after ? read(after) : '';
    return was === is ? [] : [{ label, before: was, after: is }];
  });
}

/** Lines for the items of a list matched by id: added, removed, or changed in their text. */
function itemLines<T extends { id: string }>(describe: Described<T>, before: T[] = [], after: T[] = []): DiffRow[] {
  const previous = new Map(before.map((item) => [item.id, item]));
  const lines: DiffRow[] = [];
  for (const item of after) {
    const was = previous.get(item.id);
    previous.delete(item.id);
    const [wasText, isText] = [was ? describe.text(was) : '', describe.text(item)];
    if (wasText !== isText) lines.push({ label: describe.label(item), before: wasText, after: isText });
  }
  for (const item of previous.values())
    lines.push({ label: describe.label(item), before: describe.text(item), after: '' });
  return lines;
}

const onOff = (value: boolean) => (value ? 'on' : 'off');
const json = (value: unknown) => (value && Object.keys(value).length ? JSON.stringify(value) : '');
const segmentList = (keys: string[], operator: string) =>
  keys.join(operator === 'AND_SEGMENT_OPERATOR' ? ' AND ' : ' OR ');

function variantText(variant: Variant): string {
  const parts = [variant.key];
  if (variant.name && variant.name !== variant.key) parts.push(`name "${variant.name}"`);
  if (variant.description) parts.push(`description "${variant.description}"`);
  if (variant.attachment) parts.push(`attachment ${variant.attachment}`);
  return parts.join(', ');
}

/** Distributions and ranks read by variant key: rules name variants by id, and a variant may be gone on one side. */
function flagDescriptions(before?: FlagState, after?: FlagState) {
  const variantKeys = new Map<string, string>();
  for (const state of [before, after])
    for (const variant of state?.flag.variants ?? []) variantKeys.set(variant.id, variant.key);
  const variantKey = (id: string) => variantKeys.get(id) ?? id;
  const rule: Described<Rule> = {
    label: (item) => `Rule on ${segmentList(segmentsOf(item), item.segmentOperator)}`,
    text: (item) => {
      const serves = item.distributions.length
        ? item.distributions.map((d) => `${variantKey(d.variantId)} ${d.rollout}%`).join(', ')
        : 'no variant';
      return `#${item.rank}: ${serves}`;
    },
  };
  const rollout: Described<Rollout> = {
    label: (item) =>
      item.segment
        ? `Rollout on ${segmentList(segmentsOf(item.segment), item.segment.segmentOperator)}`
        : 'Threshold rollout',
    text: (item) => {
      const serves = item.segment
        ? onOff(item.segment.value)
        : `${item.threshold?.percentage ?? 0}% ${onOff(item.threshold?.value ?? false)}`;
      return `#${item.rank}: ${serves}${item.description ? ` (${item.description})` : ''}`;
    },
  };
  const variant: Described<Variant> = { label: (item) => `Variant ${item.key}`, text: variantText };
  return { rule, rollout, variant, variantKey };
}

function flagLines(before?: FlagState, after?: FlagState): DiffRow[] {
  const describe = flagDescriptions(before, after);
  const fields = fieldLines<FlagState>(
    [
      ['Name', (s) => s.flag.name],
      ['Description', (s) => s.flag.description],
      ['Enabled', (s) => onOff(s.flag.enabled)],
      ['Default variant', (s) => (s.flag.defaultVariant ? describe.variantKey(s.flag.defaultVariant.id) : '')],
      ['Metadata', (s) => json(s.flag.metadata)],
    ],
    before,
    after,
  );
  return [
    ...fields,
    ...itemLines(describe.variant, before?.flag.variants, after?.flag.variants),
    ...itemLines(describe.rule, before?.rules, after?.rules),
    ...itemLines(describe.rollout, before?.rollouts, after?.rollouts),
  ];
}

const constraint: Described<Constraint> = {
  label: (item) => `Constraint on ${item.property}`,
  text: (item) =>
    [item.property, operatorLabel(item.type, item.operator), item.value, item.description && `(${item.description})`]
      .filter(Boolean)
      .join(' '),
};

function segmentLines(before?: Segment, after?: Segment): DiffRow[] {
  return [
    ...fieldLines<Segment>(
      [
        ['Name', (s) => s.name],
        ['Description', (s) => s.description],
        ['Match type', (s) => (s.matchType === 'ANY_MATCH_TYPE' ? 'any' : 'all')],
      ],
      before,
      after,
    ),
    ...itemLines(constraint, before?.constraints, after?.constraints),
  ];
}

function namespaceLines(before?: Namespace, after?: Namespace): DiffRow[] {
  return fieldLines<Namespace>(
    [
      ['Name', (s) => s.name],
      ['Description', (s) => s.description],
      ['Protected', (s) => (s.protected ? 'yes' : 'no')],
    ],
    before,
    after,
  );
}

/** What changed between two states of an entity, as an operator reads it: fields, variants, rules with distributions, rollouts, constraints. */
export function entityDiff(
  type: HistoryEntityType,
  before: EntityState | null | undefined,
  after: EntityState | null | undefined,
): DiffRow[] {
  const [was, is] = [before ?? undefined, after ?? undefined];
  if (type === 'flag') return flagLines(was as FlagState | undefined, is as FlagState | undefined);
  if (type === 'segment') return segmentLines(was as Segment | undefined, is as Segment | undefined);
  return namespaceLines(was as Namespace | undefined, is as Namespace | undefined);
}
