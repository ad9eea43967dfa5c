import * as v from 'valibot';
import type { Namespace } from '../../domain/flipt/types';
import { Dialog } from './Dialog';
import { Field } from './Field';
import { Picker } from './Picker';
import { keyedOptions } from '../lib/options';
import { stringAsKey } from '../lib/format';
import { useForm, useSubmitting } from '../lib/form';

interface CopyDialogProps {
  open: boolean;
  onClose(): void;
  /** 'flag' or 'segment'. */
  entity: string;
  sourceKey: string;
  /** The namespaces it may be copied to. */
  namespaces: Namespace[];
  onCopy(to: { namespaceKey: string; key?: string }): Promise<unknown>;
}

const copySchema = v.object({ namespaceKey: v.string(), key: v.string() });

/** Copy to another namespace, with an optional new key. */
export function CopyDialog({ open, onClose, entity, sourceKey, namespaces, onCopy }: CopyDialogProps) {
  const form = useForm<v.InferInput<typeof copySchema>>(
    { namespaceKey: namespaces[0]?.key ?? '', key: '' },
    copySchema,
  );
  const [submitting, track] = useSubmitting();
  const chosen = form.values.namespaceKey || namespaces[0]?.key || '';
  return (
    <Dialog open={open} onClose={onClose} title={`Copy ${entity[0].toUpperCase()}${entity.slice(1)}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          track(() => onCopy({ namespaceKey: chosen, key: form.values.key || undefined }));
        }}
      >
        <p>
          Copy the {entity} <code>{sourceKey}</code> to the namespace:
        </p>
        <Picker
          label="Namespace"
          placeholder="Choose a namespace"
          options={keyedOptions(namespaces)}
          {...form.control('namespaceKey')}
          value={chosen}
        />
        <Field label="New Key (optional)">
          {(props) => <input {...props} placeholder={sourceKey} {...form.field('key', stringAsKey)} />}
        </Field>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={!chosen || submitting}>
            Copy
          </button>
        </div>
      </form>
    </Dialog>
  );
}
