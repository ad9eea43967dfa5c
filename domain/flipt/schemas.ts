/**
 * Valibot schemas of the Flipt v1 management requests, shared by the
 * server's routes and the console's forms.
 *
 * Inputs follow protobuf JSON: camelCase or snake_case names (`parseRequest` folds snake_case),
 * `null` and absent mean the zero value, enums as names or integers, numbers as numbers or numeric
 * strings, booleans also as "true"/"false". Field-level problems read `invalid field <path>: <reason>`
 * (Flipt's ErrValidation wording); cross-field problems carry Flipt's own message.
 */
import * as v from 'valibot';
import {
  COMPARISON_TYPES,
  DEFAULT_NAMESPACE,
  FLAG_TYPES,
  MATCH_TYPES,
  SEGMENT_OPERATORS,
  type ComparisonType,
} from './types.js';
import {
  COMPARISON_TYPE_LABELS,
  ENTITY_ID_PROPERTY,
  KEY_PATTERN,
  MAX_ATTACHMENT_BYTES,
  MAX_JSON_ARRAY_ITEMS,
  MAX_KEY_LENGTH,
  MAX_NAME_LENGTH,
  NO_VALUE_OPERATORS,
  OPERATORS,
} from './keys.js';
import { type AttachmentProblem, attachmentProblem, constraintValueProblem, normalizeDatetime } from './values.js';

const INT32_MAX = 2_147_483_647;

/** PostgreSQL text cannot hold NUL characters, so no field may carry one. */
const string = v.pipe(v.string('must be a string'), v.excludes('\u0000', 'must not contain NUL characters'));
const text = v.nullish(string, '');

const required = (max: number) =>
  v.pipe(text, v.nonEmpty('must not be empty'), v.maxLength(max, `must be at most ${max} characters`));

/** A key given in the path or body of an existing entity. */
const key = required(MAX_KEY_LENGTH);
const name = required(MAX_NAME_LENGTH);
/** A namespace, flag or segment key being created. */
const newKey = v.pipe(key, v.regex(KEY_PATTERN, 'contains invalid characters'));
const optionalName = v.pipe(text, v.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`));
const namespaceKey = v.pipe(
  text,
  v.maxLength(MAX_KEY_LENGTH, `must be at most ${MAX_KEY_LENGTH} characters`),
  v.transform((value) => value || DEFAULT_NAMESPACE),
);

const boolean = v.pipe(
  v.nullish(
    v.custom<boolean | string>((x) => typeof x === 'boolean' || x === 'true' || x === 'false', 'must be a boolean'),
    false,
  ),
  v.transform((x) => x === true || x === 'true'),
);

const DECIMAL = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const isNumeric = (x: unknown) =>
  (typeof x === 'number' && Number.isFinite(x)) ||
  (typeof x === 'string' && DECIMAL.test(x) && Number.isFinite(Number(x)));

const number = v.pipe(
  v.nullish(v.custom<number | string>(isNumeric, 'must be a number'), 0),
  v.transform((x) => Number(x)),
);

const int32 = v.pipe(
  number,
  v.integer('must be an integer'),
  v.minValue(-INT32_MAX - 1, 'must be a 32-bit integer'),
  v.maxValue(INT32_MAX, 'must be a 32-bit integer'),
);

const nonNegativeInt = v.pipe(int32, v.minValue(0, 'must not be negative'));

/** A protobuf enum: its name or its number; absent means the first (zero) value. */
function enumeration<T extends string>(names: readonly T[]) {
  const byNumber = (x: unknown) =>
    typeof x === 'number' || (typeof x === 'string' && /^\d+$/.test(x)) ? names[Number(x)] : undefined;
  return v.pipe(
    v.nullish(
      v.custom<string | number>(
        (x) => (typeof x === 'string' && (names as readonly string[]).includes(x)) || byNumber(x) !== undefined,
        `must be one of ${names.join(', ')}`,
      ),
      names[0],
    ),
    v.transform((x) => byNumber(x) ?? (x as T)),
  );
}

const stringList = v.nullish(v.array(string, 'must be a list of strings'), []);

/** Absent or null: leave unchanged (undefined); an object replaces; `{}` clears. */
const metadata = v.nullish(
  v.custom<Record<string, unknown>>(
    (x) => typeof x === 'object' && x !== null && !Array.isArray(x),
    'must be a JSON object',
  ),
);

const ATTACHMENT_MESSAGES: Record<AttachmentProblem, string> = {
  notJson: 'must be a json string',
  tooLarge: `must be less than ${MAX_ATTACHMENT_BYTES / 1024} KB`,
};

const attachment = v.pipe(
  text,
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? attachmentProblem(dataset.value) : undefined;
    if (problem) addIssue({ message: ATTACHMENT_MESSAGES[problem] });
  }),
);

// Namespaces

export const CreateNamespaceRequest = v.object({ key: newKey, name, description: text });
export const UpdateNamespaceRequest = v.object({ key, name, description: text });
/** `force` (Flipt v1.51 and later) deletes a protected or non-empty namespace, flags and all. */
export const DeleteNamespaceRequest = v.object({ key, force: boolean });

// Flags and variants

export const CreateFlagRequest = v.object({
  namespaceKey,
  key: newKey,
  name,
  description: text,
  enabled: boolean,
  type: enumeration(FLAG_TYPES),
  metadata,
});

export const UpdateFlagRequest = v.object({
  namespaceKey,
  key,
  name,
  description: text,
  enabled: boolean,
  defaultVariantId: text,
  metadata,
});

const variantFields = {
  namespaceKey,
  flagKey: key,
  key,
  name: optionalName,
  description: text,
  attachment,
};
export const CreateVariantRequest = v.object(variantFields);
export const UpdateVariantRequest = v.object({ ...variantFields, id: key });

// Segments and constraints

export const CreateSegmentRequest = v.object({
  namespaceKey,
  key: newKey,
  name,
  description: text,
  matchType: enumeration(MATCH_TYPES),
});

export const UpdateSegmentRequest = v.object({
  namespaceKey,
  key,
  name,
  description: text,
  matchType: enumeration(MATCH_TYPES),
});

const constraintFields = {
  namespaceKey,
  segmentKey: key,
  type: enumeration(COMPARISON_TYPES),
  property: key,
  operator: v.pipe(key, v.toLowerCase()),
  value: text,
  description: text,
};

interface ConstraintFields {
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
}

/** Checks a constraint's operator and value for its type; blanks or normalises the value. */
function constraintRules<T extends ConstraintFields>() {
  return v.rawTransform<T, T>(({ dataset, addIssue, NEVER }) => {
    const input = dataset.value;
    const { type, property, operator, value } = input;
    const problem = (message: string) => {
      addIssue({ message });
      return NEVER;
    };
    if (type === 'UNKNOWN_COMPARISON_TYPE') return problem(`invalid constraint type: "${type}"`);
    const label = COMPARISON_TYPE_LABELS[type];
    if (!OPERATORS[type].includes(operator))
      return problem(`constraint operator "${operator}" is not valid for type ${label}`);
    if (type === 'ENTITY_ID_COMPARISON_TYPE' && property !== ENTITY_ID_PROPERTY) {
      return problem(`property is ${property} instead of "${ENTITY_ID_PROPERTY}"`);
    }
    if (NO_VALUE_OPERATORS.has(operator)) return { ...input, value: '' };
    switch (constraintValueProblem(type, operator, value)) {
      case 'empty':
        return problem('invalid field value: must not be empty');
      case 'notDatetime':
        return problem(`parsing datetime from "${value}"`);
      case 'notNumberList':
      case 'notStringList':
        return problem(`invalid value provided for property "${property}" of type ${label}`);
      case 'tooManyItems':
        return problem(
          `too many values provided for property "${property}" of type ${label} (maximum ${MAX_JSON_ARRAY_ITEMS})`,
        );
    }
    if (type === 'DATETIME_COMPARISON_TYPE') return { ...input, value: normalizeDatetime(value)! };
    return input;
  });
}

export const CreateConstraintRequest = v.pipe(v.object(constraintFields), constraintRules());
export const UpdateConstraintRequest = v.pipe(v.object({ ...constraintFields, id: key }), constraintRules());

// Rules and distributions

/** Exactly one of `segmentKey` / `segmentKeys`; the keys de-duplicated, in order. */
function segmentSelection<T extends { segmentKey: string; segmentKeys: string[] }>() {
  return v.rawTransform<T, T & { segments: string[] }>(({ dataset, addIssue, NEVER }) => {
    const { segmentKey, segmentKeys } = dataset.value;
    if (segmentKey !== '' && segmentKeys.length > 0) {
      addIssue({ message: 'invalid field segmentKey or segmentKeys: only one can be present' });
      return NEVER;
    }
    if (segmentKey === '' && segmentKeys.length === 0) {
      addIssue({ message: 'invalid field segmentKey or segmentKeys: must not be empty' });
      return NEVER;
    }
    return { ...dataset.value, segments: segmentKey !== '' ? [segmentKey] : [...new Set(segmentKeys)] };
  });
}

const segmentOperator = enumeration(SEGMENT_OPERATORS);

export const CreateRuleRequest = v.pipe(
  v.object({
    namespaceKey,
    flagKey: key,
    segmentKey: text,
    segmentKeys: stringList,
    segmentOperator,
    rank: v.pipe(int32, v.minValue(1, 'must be greater than 0')),
  }),
  segmentSelection(),
);

export const UpdateRuleRequest = v.pipe(
  v.object({ namespaceKey, flagKey: key, id: key, segmentKey: text, segmentKeys: stringList, segmentOperator }),
  segmentSelection(),
);

export const OrderRulesRequest = v.object({
  namespaceKey,
  flagKey: key,
  ruleIds: v.pipe(stringList, v.minLength(2, 'must contain atleast 2 elements')),
});

const rollout = v.pipe(
  number,
  v.minValue(0, "must be greater than or equal to '0'"),
  v.maxValue(100, "must be less than or equal to '100'"),
);

const distributionFields = { namespaceKey, flagKey: key, ruleId: key, variantId: key, rollout };
export const CreateDistributionRequest = v.object(distributionFields);
export const UpdateDistributionRequest = v.object({ ...distributionFields, id: key });
export const DeleteDistributionRequest = v.object({ namespaceKey, flagKey: key, ruleId: key, id: key, variantId: key });

// Rollouts

const rolloutSegment = v.pipe(
  v.object({ segmentKey: text, segmentKeys: stringList, segmentOperator, value: boolean }, 'must be an object'),
  segmentSelection(),
);

const rolloutThreshold = v.object(
  {
    percentage: v.pipe(
      number,
      v.check((x) => x >= 0 && x <= 100, 'must be within range [0, 100]'),
    ),
    value: boolean,
  },
  'must be an object',
);

/** Exactly one of `segment` / `threshold`. */
const rolloutRule = <T extends { segment?: unknown; threshold?: unknown }>() =>
  v.check<T, string>(
    (input) => input.segment === undefined || input.threshold === undefined,
    'invalid field rule: only one of segment or threshold can be present',
  );

const rolloutBody = {
  namespaceKey,
  flagKey: key,
  description: text,
  segment: v.nullish(rolloutSegment),
  threshold: v.nullish(rolloutThreshold),
};

export const CreateRolloutRequest = v.pipe(v.object({ ...rolloutBody, rank: int32 }), rolloutRule());
export const UpdateRolloutRequest = v.pipe(v.object({ ...rolloutBody, id: key }), rolloutRule());

export const OrderRolloutsRequest = v.object({
  namespaceKey,
  flagKey: key,
  rolloutIds: v.pipe(stringList, v.minLength(2, 'must contain atleast 2 elements')),
});

// Lists

export const ListRequest = v.object({ limit: nonNegativeInt, offset: nonNegativeInt, pageToken: text });

export type CreateNamespaceInput = v.InferOutput<typeof CreateNamespaceRequest>;
export type UpdateNamespaceInput = v.InferOutput<typeof UpdateNamespaceRequest>;
export type CreateFlagInput = v.InferOutput<typeof CreateFlagRequest>;
export type UpdateFlagInput = v.InferOutput<typeof UpdateFlagRequest>;
export type CreateVariantInput = v.InferOutput<typeof CreateVariantRequest>;
export type UpdateVariantInput = v.InferOutput<typeof UpdateVariantRequest>;
export type CreateSegmentInput = v.InferOutput<typeof CreateSegmentRequest>;
export type UpdateSegmentInput = v.InferOutput<typeof UpdateSegmentRequest>;
export type CreateConstraintInput = v.InferOutput<typeof CreateConstraintRequest>;
export type UpdateConstraintInput = v.InferOutput<typeof UpdateConstraintRequest>;
export type CreateRuleInput = v.InferOutput<typeof CreateRuleRequest>;
export type UpdateRuleInput = v.InferOutput<typeof UpdateRuleRequest>;
export type OrderRulesInput = v.InferOutput<typeof OrderRulesRequest>;
export type CreateDistributionInput = v.InferOutput<typeof CreateDistributionRequest>;
export type UpdateDistributionInput = v.InferOutput<typeof UpdateDistributionRequest>;
export type DeleteDistributionInput = v.InferOutput<typeof DeleteDistributionRequest>;
export type CreateRolloutInput = v.InferOutput<typeof CreateRolloutRequest>;
export type UpdateRolloutInput = v.InferOutput<typeof UpdateRolloutRequest>;
export type OrderRolloutsInput = v.InferOutput<typeof OrderRolloutsRequest>;
export type ListInput = v.InferOutput<typeof ListRequest>;

export type ParseResult<T> = { success: true; output: T } | { success: false; message: string };

/** Fields whose values are caller data, so their own keys are never renamed. */
const OPAQUE_FIELDS = new Set(['metadata', 'context']);

/** Parses a request body (or query) against a schema; on failure, the first problem in Flipt's wording. */
export function parseRequest<S extends v.GenericSchema>(schema: S, input: unknown): ParseResult<v.InferOutput<S>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { success: false, message: 'invalid request body: must be a JSON object' };
  }
  const result = v.safeParse(schema, camelCaseKeys(input as Record<string, unknown>), {
    abortEarly: true,
    abortPipeEarly: true,
  });
  if (result.success) return { success: true, output: result.output };
  const issue = result.issues[0];
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
  // Field rules say what the value "must" be or "contains"; cross-field rules word the whole message.
  const fieldRule = /^(must|contains) /.test(issue.message);
  return { success: false, message: path && fieldRule ? `invalid field ${path}: ${issue.message}` : issue.message };
}

/** snake_case names become camelCase; a camelCase name given too wins. */
function camelCaseKeys(input: Record<string, unknown>): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const camel = name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    if (camel !== name && Object.hasOwn(input, camel)) continue;
    output[camel] =
      typeof value === 'object' && value !== null && !Array.isArray(value) && !OPAQUE_FIELDS.has(camel)
        ? camelCaseKeys(value as Record<string, unknown>)
        : value;
  }
  return output;
}
