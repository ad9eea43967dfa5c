import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { useNamespaceKey } from '../../../lib/namespace';
import { ActionClassEditor } from '../ActionsPage';
import { actionClassesQuery, type SurveyEnvironment } from '../api';
import { Check, type PartProps } from './fields';

export function Triggers({ draft, environment, issues, change }: PartProps & { environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const classes = useQuery(actionClassesQuery(namespaceKey, environment.id));
  const [creating, setCreating] = useState(false);
  const toggle = (name: string, on: boolean) =>
    change({ triggers: on ? [...draft.triggers, name] : draft.triggers.filter((trigger) => trigger !== name) });
  const known = new Set(classes.data?.map((actionClass) => actionClass.name));
  return (
    <>
      <p className="muted">
        The survey shows when a visitor does one of these (and the audience and display rules allow it).
      </p>
      {classes.data?.map((actionClass) => (
        <Check
          key={actionClass.id}
          label={actionClass.name}
          checked={draft.triggers.includes(actionClass.name)}
          onChange={(on) => toggle(actionClass.name, on)}
        />
      ))}
      {draft.triggers
        .filter((trigger) => classes.data && !known.has(trigger))
        .map((trigger) => (
          <Check
            key={trigger}
            label={`${trigger} (code action, created on save)`}
            checked
            onChange={() => toggle(trigger, false)}
          />
        ))}
      {issues.triggers && <p className="field-error">{issues.triggers}</p>}
      <button type="button" className="link-button" onClick={() => setCreating(true)}>
        New action
      </button>
      <Dialog open={creating} onClose={() => setCreating(false)} title="New Action" side>
        <ActionClassEditor
          environment={environment}
          onDone={(name) => {
            setCreating(false);
            if (name && !draft.triggers.includes(name)) change({ triggers: [...draft.triggers, name] });
          }}
        />
      </Dialog>
    </>
  );
}
