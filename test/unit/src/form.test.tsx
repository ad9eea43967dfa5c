import { act, type ChangeEvent } from 'react';
import { createRoot } from 'react-dom/client';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  flagSchema,
  type FlagFormValues,
  variantSchema,
  type VariantValues,
} from '../../../src/features/flags/schemas';
import { useForm } from '../../../src/lib/form';
import { stringAsKey } from '../../../src/lib/format';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Form = ReturnType<typeof useForm<object>>;

function FormHost({
  initial,
  schema,
  onRender,
}: {
  initial: object;
  schema: GenericSchema;
  onRender(form: Form): void;
}) {
  onRender(useForm(initial, schema));
  return null;
}

/** Renders useForm in a component and hands back a getter of its latest result. */
function renderForm<T extends object>(initial: T, schema: GenericSchema) {
  let latest: Form | undefined;
  act(() =>
    createRoot(document.createElement('div')).render(
      <FormHost initial={initial} schema={schema} onRender={(form) => (latest = form)} />,
    ),
  );
  return () => latest as unknown as ReturnType<typeof useForm<T>>;
}

const typed = (text: string) => ({ target: { value: text } }) as ChangeEvent<HTMLInputElement>;
const checked = (on: boolean) => ({ target: { checked: on } }) as ChangeEvent<HTMLInputElement>;

/** A flag form's values with one metadata entry. */
const withTeam: FlagFormValues = {
  key: 'k',
  name: 'N',
  description: '',
  type: 'VARIANT_FLAG_TYPE',
  enabled: false,
  defaultVariantId: '',
  metadata: [{ key: 'team', type: 'string', value: 'growth' }],
};

describe('useForm', () => {
  it('binds a text field in one spread: its name, value and change, what is typed turned by `fromText`', () => {
    const variant: VariantValues = { key: '', name: '', description: '', attachment: '' };
    const form = renderForm(variant, variantSchema);
    expect(form().field('name')).toMatchObject({ name: 'name', value: '' });

    act(() => form().field('key', stringAsKey).onChange(typed('my key')));
    act(() => form().field('description').onChange(typed('Shown first')));
    expect(form().values).toEqual({ ...variant, key: 'my-key', description: 'Shown first' });
    expect(form().field('key').value).toBe('my-key');
    expect(form().dirty).toBe(true);
  });

  it("shows a field's error once the field was changed", () => {
    const flag: FlagFormValues = { ...withTeam, metadata: [] };
    const form = renderForm(flag, flagSchema);
    expect(form().valid).toBe(true);

    act(() => form().field('name').onChange(typed('')));
    expect(form().valid).toBe(false);
    expect(form().error('name')).toBe('Required');
    expect(form().error('key')).toBeUndefined();
  });

  it('is unchanged while a list field holds its initial entries again, even as a new list', () => {
    const flag = withTeam;
    const form = renderForm(flag, flagSchema);
    act(() => form().set('metadata', [{ key: 'team', type: 'string', value: 'ads' }]));
    expect(form().dirty).toBe(true);
    act(() => form().set('metadata', [{ key: 'team', type: 'string', value: 'growth' }]));
    expect(form().dirty).toBe(false);
    act(() => form().set('metadata', [...flag.metadata, { key: '', type: 'string', value: '' }]));
    expect(form().dirty).toBe(true);
    expect(form().valid).toBe(false);
  });

  it('takes newer initial values into the fields the operator has not changed, and keeps their edits', () => {
    const flag = withTeam;
    const root = createRoot(document.createElement('div'));
    let latest: Form | undefined;
    const render = (initial: FlagFormValues) =>
      act(() => root.render(<FormHost initial={initial} schema={flagSchema} onRender={(f) => (latest = f)} />));
    const form = () => latest as unknown as ReturnType<typeof useForm<FlagFormValues>>;
    render(flag);
    act(() => form().set('metadata', [{ key: 'team', type: 'boolean', value: 'true' }]));
    // Fetched again: enabled elsewhere, and described.
    render({ ...flag, enabled: true, description: 'Checkout' });
    expect(form().values).toEqual({
      ...flag,
      enabled: true,
      description: 'Checkout',
      metadata: [{ key: 'team', type: 'boolean', value: 'true' }],
    });
    expect(form().dirty).toBe(true);
    // Saved: the data now holds the edit, and nothing is left to save.
    render({
      ...flag,
      enabled: true,
      description: 'Checkout',
      metadata: [{ key: 'team', type: 'boolean', value: 'true' }],
    });
    expect(form().dirty).toBe(false);
  });

  it('binds selects, radio buttons, checkboxes, list members and value components to their fields', () => {
    const schema = v.object({
      type: v.picklist(['a', 'b']),
      on: v.boolean(),
      tags: v.pipe(v.array(v.string()), v.minLength(1, 'Choose one')),
      picked: v.string(),
    });
    const form = renderForm<v.InferInput<typeof schema>>({ type: 'a', on: false, tags: ['x'], picked: '' }, schema);
    expect(form().radio('type', 'b')).toMatchObject({ name: 'type', value: 'b', checked: false });

    act(() => form().choice('type').onChange(typed('b')));
    expect(form().radio('type', 'b').checked).toBe(true);
    act(() => form().checkbox('on').onChange(checked(true)));
    act(() => form().member('tags', 'y').onChange(checked(true)));
    act(() => form().member('tags', 'x').onChange(checked(false)));
    act(() => form().control('picked').onChange('chosen'));
    expect(form().values).toEqual({ type: 'b', on: true, tags: ['y'], picked: 'chosen' });
    expect(form().member('tags', 'y').checked).toBe(true);

    act(() => form().member('tags', 'y').onChange(checked(false)));
    expect(form().error('tags')).toBe('Choose one');
  });
});
