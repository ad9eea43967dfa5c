import { type ChangeEvent, useState } from 'react';
import * as v from 'valibot';
import { stringAsKey } from './format';

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** The first message of each field that fails the schema. */
export function validate<T extends object>(schema: v.GenericSchema<unknown, unknown>, values: T): FieldErrors<T> {
  const result = v.safeParse(schema, values);
  if (result.success) return {};
  const errors: FieldErrors<T> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key as keyof T | undefined;
    if (key !== undefined && errors[key] === undefined) errors[key] = issue.message;
  }
  return errors;
}

/** Whether a field still holds its initial value: the same value, or a list or object of the same JSON. */
function same(initial: unknown, value: unknown): boolean {
  if (Object.is(initial, value)) return true;
  return (
    typeof initial === 'object' &&
    initial !== null &&
    typeof value === 'object' &&
    value !== null &&
    JSON.stringify(initial) === JSON.stringify(value)
  );
}

/** The fields of T that hold plain text: those an input or textarea edits as is. */
type TextField<T> = { [K in keyof T]: string extends T[K] ? (T[K] extends string ? K : never) : never }[keyof T] &
  string;
/** The fields of T that hold one of a few strings: a select's or a radio group's. */
type ChoiceField<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;
/** The fields of T that are on or off: a checkbox's. */
type CheckField<T> = { [K in keyof T]: T[K] extends boolean ? K : never }[keyof T] & string;
/** The fields of T that hold a list. */
type ListField<T> = { [K in keyof T]: T[K] extends readonly unknown[] ? K : never }[keyof T] & string;
type ItemOf<L> = L extends readonly (infer I)[] ? I : never;
type TextElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A small form hook: values, per-field errors from a valibot schema (shown once a field is
 * touched), whether anything changed since the initial values, and whether the form is valid.
 * Give it the form's object schema and values of the type inferred from it (`v.InferInput`).
 */
export function useForm<T extends object>(initial: T, schema: v.GenericSchema<unknown, unknown>) {
  const [values, setValues] = useState(initial);
  const [base, setBase] = useState(initial);
  const fields = Object.keys(initial) as (keyof T)[];
  // Newer initial values (the entity fetched again, changed elsewhere): the fields the operator has not
  // changed follow them, the ones they changed keep their edit. Remounting the form instead lost the edits.
  if (fields.some((key) => !same(base[key], initial[key]))) {
    setBase(initial);
    setValues((current) => {
      const followed = { ...current };
      for (const key of fields) if (same(base[key], current[key])) followed[key] = initial[key];
      return followed;
    });
  }
  const [touched, setTouched] = useState<Partial<Record<keyof T, boolean>>>({});
  const errors = validate(schema, values);
  const dirty = fields.some((key) => !same(initial[key], values[key]));
  const set = <K extends keyof T>(field: K, value: T[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
  };
  return {
    values,
    errors,
    dirty,
    /** Whether the schema takes the values: a problem of the whole form (a check across fields) counts too. */
    valid: Object.keys(errors).length === 0 && v.is(schema, values),
    /** The error to show for a field: only once it was touched. */
    error: (field: keyof T) => (touched[field] ? errors[field] : undefined),
    set,
    /**
     * Binds an input or textarea to a text field, so that a field is one line:
     * `<input {...props} {...form.field('description')} />`. `fromText` turns what is typed into the
     * value (e.g. `stringAsKey`).
     */
    field: <K extends TextField<T>>(name: K, fromText: (text: string) => string = String) => ({
      name,
      value: values[name] as string,
      onChange: (event: ChangeEvent<TextElement>) => set(name, fromText(event.target.value) as T[K]),
    }),
    /** Binds a select to a field holding one of its options' values: `<select {...form.choice('type')}>`. */
    choice: <K extends ChoiceField<T>>(name: K) => ({
      name,
      value: values[name] as string,
      onChange: (event: ChangeEvent<TextElement>) => set(name, event.target.value as T[K]),
    }),
    /** Binds one radio button of a group to the field it sets to `value`. */
    radio: <K extends ChoiceField<T>>(name: K, value: T[K]) => ({
      name,
      value,
      checked: values[name] === value,
      onChange: () => set(name, value),
    }),
    /** Binds a checkbox to a field that is on or off. */
    checkbox: <K extends CheckField<T>>(name: K) => ({
      name,
      checked: values[name] as boolean,
      onChange: (event: ChangeEvent<HTMLInputElement>) => set(name, event.target.checked as T[K]),
    }),
    /** Binds a checkbox to whether a list field holds `item`. */
    member: <K extends ListField<T>, I extends ItemOf<T[K]>>(name: K, item: I) => {
      const list = values[name] as readonly I[];
      return {
        checked: list.includes(item),
        onChange: (event: ChangeEvent<HTMLInputElement>) =>
          set(name, (event.target.checked ? [...list, item] : list.filter((other) => other !== item)) as T[K]),
      };
    },
    /** Edits a list field row by row (a filter's conditions): change, remove or add one row. */
    rows: <K extends ListField<T>>(name: K) => {
      const list = values[name] as readonly ItemOf<T[K]>[];
      return {
        list,
        change: (index: number, row: ItemOf<T[K]>) =>
          set(name, list.map((item, i) => (i === index ? row : item)) as T[K]),
        remove: (index: number) => set(name, list.filter((_, i) => i !== index) as T[K]),
        add: (row: ItemOf<T[K]>) => set(name, [...list, row] as T[K]),
      };
    },
    /**
     * Binds a component that takes a value and hands back the next one (a picker, a list editor, a date
     * input): `<Picker {...form.control('namespaceKey')} />`.
     */
    control: <K extends keyof T>(name: K) => ({
      value: values[name],
      onChange: (value: T[K]) => set(name, value),
    }),
    update(change: Partial<T>) {
      setValues((current) => ({ ...current, ...change }));
    },
    touch: (field: keyof T) => setTouched((current) => ({ ...current, [field]: true })),
    reset: (next: T) => {
      setValues(next);
      setTouched({});
    },
  };
}

/** The part of a `useForm` result that a name and key pair needs. */
export interface NameKeyForm {
  values: { key: string; name: string };
  set(field: 'key' | 'name', value: string): void;
  error(field: 'key' | 'name'): string | undefined;
}

/**
 * Setters for a form's name and key: the key is always transformed to a key, and while `follow` is
 * true (creating) it follows the name as long as it is empty or still equals the transformed name.
 */
export function nameKeySetters(form: Omit<NameKeyForm, 'error'>, follow: boolean) {
  return {
    setName(name: string) {
      const follows = follow && (form.values.key === '' || form.values.key === stringAsKey(form.values.name));
      form.set('name', name);
      if (follows) form.set('key', stringAsKey(name));
    },
    setKey: (key: string) => form.set('key', stringAsKey(key)),
  };
}

/**
 * Whether a save is under way: `track(save)` calls `save` and marks it pending until its promise
 * settles (the returned promise is the settled one, as `save().finally(...)`).
 */
export function useSubmitting() {
  const [submitting, setSubmitting] = useState(false);
  const track = (save: () => Promise<unknown>) => {
    setSubmitting(true);
    return save().finally(() => setSubmitting(false));
  };
  return [submitting, track] as const;
}
