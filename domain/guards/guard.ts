/**
 * A feedback guard as the API reads and writes it (`/api/v1/namespaces/{namespaceKey}/flags/{flagKey}/guards`),
 * and the pure rules around it: which value of the flag a display counts for, what share of displays the
 * flag's configuration expects each value to get, and the flag's configuration after a rollback.
 */
import * as v from 'valibot';
import type { FlagState } from '../flipt/history.js';
import type { Flag } from '../flipt/types.js';
import type { Interval } from './statistics.js';
import type { GuardState, Measure } from './assess.js';

export const GUARD_ACTIONS = ['ALERT', 'ROLLBACK'] as const;
export type GuardAction = (typeof GUARD_ACTIONS)[number];

export const DEFAULT_ERROR_RATE = 0.05;
export const DEFAULT_MINIMUM_SAMPLE = 100;

/** The question types a guard can read, and what it reads from each. */
export const GUARDED_QUESTION_TYPES = ['nps', 'rating', 'multipleChoiceSingle', 'multipleChoiceMulti'] as const;

const text = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'));

/** The fields an operator sets; `answer` only for a choice question. */
export const GuardRequest = v.object({
  surveyId: text,
  environmentId: text,
  questionId: text,
  answer: v.optional(v.string()),
  baseline: text,
  minimumRegression: v.pipe(v.number(), v.finite(), v.gtValue(0, 'must be greater than 0')),
  action: v.picklist(GUARD_ACTIONS, 'must be ALERT or ROLLBACK'),
  errorRate: v.optional(
    v.pipe(v.number(), v.gtValue(0, 'must be greater than 0'), v.maxValue(0.5, 'must be at most 0.5')),
    DEFAULT_ERROR_RATE,
  ),
  minimumSample: v.optional(
    v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(2, 'must be at least 2')),
    DEFAULT_MINIMUM_SAMPLE,
  ),
});
export type GuardSettingsInput = v.InferOutput<typeof GuardRequest>;

export interface GuardArmReading {
  /** A variant key, or "true" / "false" for a boolean flag. */
  key: string;
  displays: number;
  responses: number;
  /** The arm's mean answer in the question's units (NPS -100..100, the rating, the share 0..1); null without answers. */
  estimate: number | null;
}

export interface Guard extends GuardSettingsInput {
  id: string;
  namespaceKey: string;
  flagKey: string;
  state: GuardState;
  /** Why the guard is in its state, in words. */
  reason: string;
  arms: GuardArmReading[];
  /** The worst guarded arm's mean minus the baseline's, with its always-valid interval; null until it can be told. */
  difference: Interval | null;
  actedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A boolean flag's values as guards name them, and as survey links and displays record them. */
const BOOLEAN_ARMS: Record<string, string> = { enabled: 'true', disabled: 'false' };
const BOOLEAN_LINKS: Record<string, string> = { true: 'enabled', false: 'disabled' };

/** The arm a display or response counts for: the variant key, or "true" / "false" for a boolean flag's value. */
export const armOfAssignment = (variant: string): string => BOOLEAN_ARMS[variant] ?? variant;
/** The survey link value (a variant key, or enabled / disabled) of an arm. */
export const linkValueOfArm = (arm: string, flagType: Flag['type']): string =>
  flagType === 'BOOLEAN_FLAG_TYPE' ? (BOOLEAN_LINKS[arm] ?? arm) : arm;

/** What a guard measures from its question: the question's type, and for a choice question the choice read. */
export function measureOf(questionType: string, answer: string | null | undefined): Measure {
  if (questionType === 'nps') return { kind: 'nps' };
  if (questionType === 'rating') return { kind: 'rating' };
  return { kind: 'share', choice: answer ?? '' };
}

/**
 * The share of displays each arm is expected to get from the flag's configuration: for a variant flag, the
 * first rule that distributes to the baseline (its distributions' percentages); for a boolean flag, the first
 * threshold rollout (its percentage to its value, the rest to the other). Undefined when the configuration
 * says nothing about the split (the sample-ratio check is then skipped).
 */
export function expectedShares(
  state: FlagState,
  arms: readonly string[],
  baseline: string,
): Map<string, number> | undefined {
  if (state.flag.type === 'BOOLEAN_FLAG_TYPE') {
    const threshold = state.rollouts.find((rollout) => rollout.threshold)?.threshold;
    if (!threshold) return undefined;
    const served = String(threshold.value);
    return new Map(arms.map((arm) => [arm, arm === served ? threshold.percentage : 100 - threshold.percentage]));
  }
  const variantKeys = new Map(state.flag.variants.map((variant) => [variant.id, variant.key]));
  const rule = state.rules.find((candidate) =>
    candidate.distributions.some((distribution) => variantKeys.get(distribution.variantId) === baseline),
  );
  if (!rule) return undefined;
  const shares = new Map(arms.map((arm) => [arm, 0]));
  for (const distribution of rule.distributions) {
    const key = variantKeys.get(distribution.variantId);
    if (key !== undefined && shares.has(key)) shares.set(key, (shares.get(key) ?? 0) + distribution.rollout);
  }
  return shares;
}

/**
 * The flag's configuration once every visitor it served `from` gets `to` instead: a variant flag's distributions
 * of `from` move to `to` (added to its distribution in the same rule, or becoming it), and a default variant of
 * `from` becomes `to`; a boolean flag's rollouts and default value serving `from` serve `to`. Nothing else changes.
 */
export function rolledBack(state: FlagState, from: string, to: string): FlagState {
  const { flag } = state;
  if (flag.type === 'BOOLEAN_FLAG_TYPE') {
    const target = to === 'true';
    const serves = (value: boolean) => String(value) === from;
    return {
      flag: serves(flag.enabled) ? { ...flag, enabled: target } : flag,
      rules: state.rules,
      rollouts: state.rollouts.map((rollout) => {
        if (rollout.threshold && serves(rollout.threshold.value))
          return { ...rollout, threshold: { ...rollout.threshold, value: target } };
        if (rollout.segment && serves(rollout.segment.value))
          return { ...rollout, segment: { ...rollout.segment, value: target } };
        return rollout;
      }),
    };
  }
  const fromVariant = flag.variants.find((variant) => variant.key === from);
  const toVariant = flag.variants.find((variant) => variant.key === to);
  if (!fromVariant || !toVariant) return state;
  return {
    flag: flag.defaultVariant?.key === from ? { ...flag, defaultVariant: toVariant } : flag,
    rollouts: state.rollouts,
    rules: state.rules.map((rule) => {
      const moved = rule.distributions.find((distribution) => distribution.variantId === fromVariant.id);
      if (!moved) return rule;
      const receiving = rule.distributions.find((distribution) => distribution.variantId === toVariant.id);
      const distributions = receiving
        ? rule.distributions
            .filter((distribution) => distribution !== moved)
            .map((distribution) =>
              distribution === receiving
                ? { ...distribution, rollout: distribution.rollout + moved.rollout }
                : distribution,
            )
        : rule.distributions.map((distribution) =>
            distribution === moved ? { ...distribution, variantId: toVariant.id } : distribution,
          );
      return { ...rule, distributions };
    }),
  };
}
