import { useState } from 'react';
import type { Namespace } from '../../domain/flipt/types';
import { Dialog } from './Dialog';
import { Field } from './Field';
import { Picker } from './Picker';
import { keyedOptions } from '../lib/options';
import { stringAsKey } from '../lib/format';
import { useSubmitting } from '../lib/form';

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

/** Copy to another namespace, with an optional new key. */
export function CopyDialog({ open, onClose, entity, sourceKey, namespaces, onCopy }: CopyDialogProps) {
  const [target, setTarget] = useState(namespaces[0]?.key ?? '');
  const [key, setKey] = useState('');
  const [submitting, track] = useSubmitting();
  const chosen = target || namespaces[0]?.key || '';
  return (
    <Dialog open={open} onClose={onClose} title={`Copy ${entity[0].toUpperCase()}${entity.slice(1)}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          track(() => onCopy({ namespaceKey: chosen, key: key || undefined }));
        }}
      >
        <p>
          Copy the {entity} <code>{sourceKey}</code> to the namespace:
        </p>
        <Picker
          label="Namespace"
          placeholder="Choose a namespace"
          options={keyedOptions(namespaces)}
          value={chosen}
          onChange={setTarget}
        />
        <Field label="New Key (optional)">
          {(props) => (
            <input
              {...props}
              value={key}
              placeholder={sourceKey}
              onChange={(event) => setKey(stringAsKey(event.target.value))}
            />
          )}
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
