import { useLocation } from 'wouter';
import { errorMessage } from '../api/client';
import { useWritable } from '../api/writable';
import { nameKeySetters, type NameKeyForm } from '../lib/form';
import { toastError, toastSuccess } from '../stores/toasts';
import { Field } from './Field';

/**
 * The Name and Key fields of a flag, segment or namespace form, side by side (one under the other with
 * `stacked`). The key is chosen only at creation, and then follows the name (see `nameKeySetters`).
 */
export function NameKeyFields({ form, editing, stacked }: { form: NameKeyForm; editing: boolean; stacked?: boolean }) {
  const { disabled } = useWritable();
  const { values } = form;
  const { setName, setKey } = nameKeySetters(form, !editing);
  const fields = (
    <>
      <Field label="Name" error={form.error('name')}>
        {(props) => (
          <input
            {...props}
            name="name"
            value={values.name}
            disabled={disabled}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <Field label="Key" error={form.error('key')}>
        {(props) => (
          <input
            {...props}
            name="key"
            value={values.key}
            disabled={editing || disabled}
            onChange={(event) => setKey(event.target.value)}
          />
        )}
      </Field>
    </>
  );
  return stacked ? fields : <div className="form-grid">{fields}</div>;
}

interface SaveEntity {
  /** Updates the entity; absent when creating. */
  update?: () => Promise<unknown>;
  create(): Promise<{ key: string }>;
  /** The page of the created entity, shown once it is created. */
  createdHref(key: string): string;
}

/** Saves a flag or segment form: a success toast ("Successfully updated flag"), the new page after creation, errors as a toast. */
export function useSaveEntity(entity: string) {
  const [, navigate] = useLocation();
  return async ({ update, create, createdHref }: SaveEntity) => {
    try {
      if (update) {
        await update();
        toastSuccess(`Successfully updated ${entity}`);
      } else {
        const created = await create();
        toastSuccess(`Successfully created ${entity}`);
        navigate(createdHref(created.key));
      }
    } catch (error) {
      toastError(errorMessage(error));
    }
  };
}
