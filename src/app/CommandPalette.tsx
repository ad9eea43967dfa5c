import './shared-chunk';
import { Combobox, ComboboxItem, ComboboxList, ComboboxProvider, Dialog } from '@ariakit/react';
import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { useNamespaces } from '../features/namespaces';
import { useNamespaceStore } from '../stores/namespace';
import { usePreferencesStore, type Theme } from '../stores/preferences';
import { namespacePath, namespacedSection } from '../lib/paths';

interface Command {
  label: string;
  run(): void;
}

const THEMES: [Theme, string][] = [
  ['light', 'Light'],
  ['dark', 'Dark'],
  ['system', 'System'],
];

function useCommands(): Command[] {
  const [location, navigate] = useLocation();
  const namespaces = useNamespaces().data?.namespaces ?? [];
  const current = useNamespaceStore((state) => state.current);
  const setCurrent = useNamespaceStore((state) => state.setCurrent);
  const setTheme = usePreferencesStore((state) => state.setTheme);
  return useMemo(() => {
    const go = (path: string) => () => navigate(path);
    const commands: Command[] = [
      { label: 'Flags', run: go(namespacePath(current, '/flags')) },
      { label: 'Segments', run: go(namespacePath(current, '/segments')) },
      { label: 'Surveys', run: go(namespacePath(current, '/surveys')) },
      { label: 'Console', run: go(namespacePath(current, '/console')) },
      { label: 'History', run: go(namespacePath(current, '/history')) },
      { label: 'Settings: General', run: go('/settings') },
      { label: 'Settings: Namespaces', run: go('/settings/namespaces') },
      { label: 'Settings: API Tokens', run: go('/settings/tokens') },
      { label: 'Support', run: go('/support') },
    ];
    if (namespaces.length > 1) {
      for (const namespace of namespaces) {
        commands.push({
          label: `Switch Namespaces: ${namespace.name}`,
          run: () => {
            setCurrent(namespace.key);
            navigate(namespacePath(namespace.key, `/${namespacedSection(location) ?? 'flags'}`));
          },
        });
      }
    }
    for (const [theme, label] of THEMES) {
      commands.push({ label: `Preferences: Change Theme: ${label}`, run: () => setTheme(theme) });
    }
    return commands;
  }, [location, navigate, namespaces, current, setCurrent, setTheme]);
}

/** The command palette: ctrl/cmd + k toggles it, Escape closes it; type to filter, arrows and Enter to run. */
export default function CommandPalette({ onClose }: { onClose(): void }) {
  const commands = useCommands();
  const [query, setQuery] = useState('');
  const matches = commands.filter((command) => command.label.toLowerCase().includes(query.trim().toLowerCase()));

  const run = (command: Command) => {
    onClose();
    command.run();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      className="dialog palette"
      backdrop={<div className="backdrop" />}
      aria-label="Command palette"
    >
      {/* The list is always shown: the combobox closing (Escape) closes the palette. */}
      <ComboboxProvider open setOpen={(open) => open || onClose()} setValue={setQuery}>
        <Combobox autoSelect autoFocus className="palette-input" aria-label="Search commands" placeholder="Search…" />
        <ComboboxList className="palette-list" aria-label="Commands">
          {matches.map((command) => (
            <ComboboxItem
              key={command.label}
              className="palette-option"
              setValueOnClick={false}
              hideOnClick={false}
              onClick={() => run(command)}
            >
              {command.label}
            </ComboboxItem>
          ))}
        </ComboboxList>
      </ComboboxProvider>
      {matches.length === 0 && <p className="muted palette-empty">No results found</p>}
    </Dialog>
  );
}
